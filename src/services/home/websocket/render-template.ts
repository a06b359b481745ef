// WebSocket `render_template` (HA's websocket_api handle_render_template): a subscription whose
// events carry the template's result ({result, listeners}) now and whenever a state it read
// changes. `strict` and `timeout` render once first and refuse with `template_error`;
// `report_errors` sends render failures as {error, level} events (otherwise they are only logged).
import {
  compileTemplate,
  DEFAULT_LIMITS,
  renderTemplate,
  TemplateError,
  trackTemplate,
  worldOf,
} from '../templates/index.js';
import type { Session } from './commands.js';
import { CommandError, expectObj, expectStr, formatError, type Msg } from './messages.js';

export function renderTemplateCommand(s: Session, msg: Msg): void {
  const id = msg.id;
  const source = expectStr(msg, 'template', true)!;
  const variables = expectObj(msg, 'variables') ?? {};
  const reportErrors = msg.report_errors === true;
  if (msg.timeout !== undefined && (typeof msg.timeout !== 'number' || !(msg.timeout > 0)))
    throw formatError(`expected float for dictionary value @ data['timeout']`);
  try {
    compileTemplate(source);
    if (msg.strict === true || typeof msg.timeout === 'number') {
      const maxMs =
        typeof msg.timeout === 'number' ? Math.min(msg.timeout * 1000, DEFAULT_LIMITS.maxMs) : DEFAULT_LIMITS.maxMs;
      try {
        renderTemplate(source, worldOf(s.home), variables, { ...DEFAULT_LIMITS, maxMs });
      } catch (err) {
        if (typeof msg.timeout === 'number' && err instanceof TemplateError && /ran longer than/.test(err.message))
          throw new TemplateError(`Exceeded maximum execution time of ${msg.timeout}s`);
        if (msg.strict === true) throw err;
      }
    }
  } catch (err) {
    if (err instanceof TemplateError) throw new CommandError('template_error', err.message);
    throw err;
  }
  s.result(id, null);
  const stop = trackTemplate(s.home, source, variables, (r) => {
    if ('error' in r) {
      s.home.logger.warn({ template: source, err: r.error }, 'home: template render failed');
      if (reportErrors) s.send(JSON.stringify({ id, type: 'event', event: { error: r.error, level: 'ERROR' } }));
      return;
    }
    s.send(JSON.stringify({ id, type: 'event', event: r }));
  });
  s.subscribe(id, stop);
}
