// template trigger: fires when its value_template's result turns true (HA's result_as_boolean)
// after being false; a template that is true when attached waits for it to turn false first.
// It re-renders as render_template does: when a state it read changes (templates/tracker.ts).
import type { State } from '../../core/state.js';
import { trackTemplate } from '../../templates/index.js';
import { resultAsBoolean, templateOf } from '../templating.js';
import { parseDuration } from '../config-values.js';
import { HoldTimers, type TriggerType } from './types.js';

const asBoolean = (result: unknown) => (typeof result === 'boolean' ? result : resultAsBoolean(String(result)));

export const templateTrigger: TriggerType = {
  validate(c) {
    return {
      ...c,
      value_template: templateOf(c.value_template, 'value_template'),
      for: c.for === undefined ? undefined : parseDuration(c.for, 'for'),
    };
  },
  describe: () => 'template',
  attach(c, home, fire) {
    const forMs = c.for as number | undefined;
    const holds = new HoldTimers(home);
    /** The last result was false, so a true one fires (unknown before the first render). */
    let armed = false;
    const variables = (c.variables ?? {}) as Record<string, unknown>;
    const stop = trackTemplate(home, c.value_template as string, variables, (r, cause) => {
      if ('error' in r) {
        home.logger.warn({ template: c.value_template, err: r.error }, 'home: template trigger failed');
        return;
      }
      const now = asBoolean(r.result);
      const ready = armed;
      armed = !now;
      if (!now) return holds.cancel('template');
      if (!ready) return;
      const entityId = cause ? String(cause.data.entity_id) : null;
      const vars = {
        platform: 'template',
        entity_id: entityId,
        from_state: (cause?.data.old_state as State | null) ?? null,
        to_state: (cause?.data.new_state as State | null) ?? null,
        for: forMs === undefined ? null : forMs / 1000,
        description: entityId ? `${entityId} via template` : 'template',
      };
      holds.fireAfter('template', forMs, () => fire(vars, cause?.context));
    });
    return () => {
      stop();
      holds.clear();
    };
  },
};
