// Every trigger type by name. Adding one: write its file, add one line here.
import type { Context } from '../../core/context.js';
import type { Home } from '../../core/home.js';
import { eventTrigger } from './event.js';
import { numericStateTrigger } from './numeric_state.js';
import { stateTrigger } from './state.js';
import { templateTrigger } from './template.js';
import { timeTrigger } from './time.js';
import { timePatternTrigger } from './time_pattern.js';
import { ConfigProblem } from '../config-values.js';
import type { TriggerType, TriggerVars } from './types.js';
import { webhookTrigger } from './webhook.js';

const TRIGGERS: Record<string, TriggerType> = {
  state: stateTrigger,
  numeric_state: numericStateTrigger,
  event: eventTrigger,
  webhook: webhookTrigger,
  time: timeTrigger,
  time_pattern: timePatternTrigger,
  template: templateTrigger,
};

export interface NormalizedTrigger {
  type: TriggerType;
  platform: string;
  config: Record<string, unknown>;
  id: string;
  idx: string;
}

/** Validates a trigger list in either spelling (`trigger:` or the old `platform:`). */
export function normalizeTriggers(raw: unknown): NormalizedTrigger[] {
  const list = Array.isArray(raw) ? raw : raw === undefined || raw === null ? [] : [raw];
  return list.map((t, i) => {
    if (typeof t !== 'object' || t === null || Array.isArray(t))
      throw new ConfigProblem(`expected a dictionary for triggers[${i}]`);
    const c = t as Record<string, unknown>;
    const platform = (c.trigger ?? c.platform) as string;
    const type = typeof platform === 'string' ? TRIGGERS[platform] : undefined;
    if (!type) throw new ConfigProblem(`Invalid trigger '${String(platform)}' specified @ data[${i}]`);
    const { trigger: _t, platform: _p, ...rest } = c;
    try {
      return {
        type,
        platform,
        config: type.validate(rest),
        id: typeof c.id === 'string' ? c.id : String(i),
        idx: String(i),
      };
    } catch (err) {
      throw new ConfigProblem(`${(err as Error).message} (triggers[${i}])`);
    }
  });
}

/** Attaches triggers; `fire` gets HA's trigger variables. Returns a detach function. */
export function attachTriggers(
  home: Home,
  triggers: NormalizedTrigger[],
  fire: (vars: TriggerVars, context?: Context, replicated?: boolean) => void,
): () => void {
  const stops: Array<() => void> = [];
  try {
    for (const t of triggers) {
      stops.push(
        t.type.attach(t.config, home, (vars, context, replicated) =>
          fire(
            { id: t.id, idx: t.idx, alias: t.config.alias ?? null, ...vars, platform: t.platform },
            context,
            replicated,
          ),
        ),
      );
    }
  } catch (err) {
    stops.forEach((s) => s());
    throw err;
  }
  return () => stops.forEach((s) => s());
}

export { ConfigProblem };
