// time trigger: at a time of day ("07:30" or "07:30:00", or a list), in the home's time zone.
import { onSchedule } from '../schedule.js';
import { ConfigProblem, need } from '../config-values.js';
import type { TriggerType } from './types.js';

const TIME_RE = /^([01]?\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

export const timeTrigger: TriggerType = {
  validate(c) {
    const raw = need(c, 'at');
    const list = Array.isArray(raw) ? raw : [raw];
    for (const t of list) {
      if (typeof t !== 'string' || !TIME_RE.test(t))
        throw new ConfigProblem(
          `Invalid time specified: ${JSON.stringify(t)} for dictionary value @ data['at'] (entity times are not supported)`,
        );
    }
    return { ...c, at: list };
  },
  describe: (c) => `time ${(c.at as string[]).join(', ')}`,
  attach(c, home, fire) {
    const stops = (c.at as string[]).map((at) => {
      const [, h, m, s = '0'] = TIME_RE.exec(at)!;
      return onSchedule(home, `${Number(s)} ${Number(m)} ${Number(h)} * * *`, (when) =>
        fire({ platform: 'time', now: when.toISOString(), at, entity_id: null, description: `time` }),
      );
    });
    return () => stops.forEach((s) => s());
  },
};
