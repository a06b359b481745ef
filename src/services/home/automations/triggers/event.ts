// event trigger: an event of a type fires whose data contains event_data (a subset match).
import { deepEqual } from '../../core/state.js';
import { ConfigProblem, need } from '../config-values.js';
import type { TriggerType } from './types.js';

export const eventTrigger: TriggerType = {
  validate(c) {
    const raw = need(c, 'event_type');
    const types = Array.isArray(raw) ? raw : [raw];
    if (types.some((t) => typeof t !== 'string' || !t))
      throw new ConfigProblem("expected str for dictionary value @ data['event_type']");
    if (c.event_data !== undefined && (typeof c.event_data !== 'object' || c.event_data === null))
      throw new ConfigProblem("expected dict for dictionary value @ data['event_data']");
    return { ...c, event_type: types };
  },
  describe: (c) => `event '${(c.event_type as string[]).join(', ')}'`,
  attach(c, home, fire) {
    const want = (c.event_data ?? {}) as Record<string, unknown>;
    const stops = (c.event_type as string[]).map((type) =>
      home.bus.listen(type, (e) => {
        if (!Object.entries(want).every(([k, v]) => deepEqual(e.data[k], v))) return;
        fire(
          {
            platform: 'event',
            event: {
              event_type: e.event_type,
              data: e.data,
              origin: e.origin,
              time_fired: e.time_fired,
              context: e.context,
            },
            description: `event '${e.event_type}'`,
          },
          e.context,
          e.replicated,
        );
      }),
    );
    return () => stops.forEach((s) => s());
  },
};
