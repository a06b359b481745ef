// Templates inside data (HA's template.render_complex): service data, event data and MQTT
// command payloads whose strings hold {{ … }}. Each templated string is rendered and, as HA
// does, read back as a native value (a number, a list, True…) unless asked for text.
import type { Home } from '../core/home.js';
import { isTemplate, renderTemplate } from './engine.js';
import { parseResult } from './result.js';
import { worldOf } from './world.js';

export function renderText(home: Home, source: string, variables: Record<string, unknown> = {}): string {
  return renderTemplate(source, worldOf(home), variables).text;
}

/** A template's result as a native value (HA's parse_result). */
function renderValue(home: Home, source: string, variables: Record<string, unknown> = {}): unknown {
  return parseResult(renderText(home, source, variables));
}

/** Every templated string in a JSON-like value rendered; the rest as it was. Throws a TemplateError. */
export function renderComplex(home: Home, value: unknown, variables: Record<string, unknown>): unknown {
  if (typeof value === 'string') return isTemplate(value) ? renderValue(home, value, variables) : value;
  if (Array.isArray(value)) return value.map((v) => renderComplex(home, v, variables));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renderComplex(home, v, variables)]));
  return value;
}

/** True when a JSON-like value holds a template anywhere. */
export function hasTemplate(value: unknown): boolean {
  if (typeof value === 'string') return isTemplate(value);
  if (Array.isArray(value)) return value.some(hasTemplate);
  if (value && typeof value === 'object') return Object.values(value).some(hasTemplate);
  return false;
}
