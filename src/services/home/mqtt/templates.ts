// MQTT templates, rendered with the home's template engine as HA's MQTT integration does:
// value templates turn a state message into a value (`value` is the payload, `value_json` the
// payload parsed as JSON when it is JSON), command templates turn a value into the payload
// to publish (`value`, plus component-specific variables such as red/green/blue).
import { validation } from '../core/errors.js';
import type { Home } from '../core/home.js';
import { renderText, TemplateError } from '../templates/index.js';

/** The payload read through a value template; undefined (and a logged warning) when it does not render. */
export function readValue(home: Home, template: unknown, payload: string): string | undefined {
  if (template === undefined || template === null) return payload;
  let json: unknown;
  try {
    json = JSON.parse(payload);
  } catch {
    json = undefined;
  }
  try {
    return renderText(
      home,
      String(template),
      json === undefined ? { value: payload } : { value: payload, value_json: json },
    );
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    home.logger.warn(
      { template, payload: payload.slice(0, 200), err: err.message },
      'home: MQTT value template failed; message ignored',
    );
    return undefined;
  }
}

/** The payload to publish: the value as it is, or through a command template. */
export function commandPayload(
  home: Home,
  template: unknown,
  value: string | number,
  variables: Record<string, unknown> = {},
): string {
  if (template === undefined || template === null) return String(value);
  try {
    return renderText(home, String(template), { ...variables, value });
  } catch (err) {
    if (!(err instanceof TemplateError)) throw err;
    // HA refuses the service call (MqttCommandTemplateException).
    throw validation(`Unable to render command template: ${err.message}`);
  }
}
