// scene: a set of entity states from the house file (HA's `scene:` section). Activating one
// (scene.turn_on) or applying states directly (scene.apply) calls each entity's own services,
// as HA's reproduce_state does; the scene's state is the time it was last activated.
import { invalid, notFound } from '../core/errors.js';
import type { Context } from '../core/context.js';
import { float, object, required } from '../core/fields.js';
import type { Home } from '../core/home.js';
import { isoUs } from '../core/time.js';
import type { DomainModule } from './domain.js';

type Wanted = { state?: unknown; [attribute: string]: unknown };

/** The service calls that bring one entity to a wanted state (HA's per-domain reproduce_state). */
function callsFor(domain: string, wanted: Wanted): Array<[string, Record<string, unknown>]> {
  const { state, ...attrs } = wanted;
  const st = String(state ?? '');
  switch (domain) {
    case 'cover':
      if (typeof attrs.current_position === 'number')
        return [['set_cover_position', { position: attrs.current_position }]];
      return st === 'open' ? [['open_cover', {}]] : st === 'closed' ? [['close_cover', {}]] : [];
    case 'climate': {
      const calls: Array<[string, Record<string, unknown>]> = st ? [['set_hvac_mode', { hvac_mode: st }]] : [];
      if (typeof attrs.temperature === 'number') calls.push(['set_temperature', { temperature: attrs.temperature }]);
      if (typeof attrs.preset_mode === 'string') calls.push(['set_preset_mode', { preset_mode: attrs.preset_mode }]);
      return calls;
    }
    case 'media_player':
      return st === 'playing'
        ? [['media_play', {}]]
        : st === 'paused'
          ? [['media_pause', {}]]
          : st === 'off'
            ? [['turn_off', {}]]
            : st === 'on'
              ? [['turn_on', {}]]
              : [];
    case 'input_select':
      return [['select_option', { option: st }]];
    case 'input_number':
    case 'input_text':
      return [['set_value', { value: st }]];
    case 'light': {
      if (st === 'off') return [['turn_off', {}]];
      const data = Object.fromEntries(
        Object.entries(attrs).filter(([k]) =>
          [
            'brightness',
            'brightness_pct',
            'color_temp_kelvin',
            'color_temp',
            'hs_color',
            'rgb_color',
            'xy_color',
            'effect',
          ].includes(k),
        ),
      );
      return st === 'on' ? [['turn_on', data]] : [];
    }
    default:
      return st === 'on' ? [['turn_on', {}]] : st === 'off' ? [['turn_off', {}]] : [];
  }
}

/** `{entity_id: "on" | {state, ...attributes}}` → every entity brought to its state; checked before anything changes. */
async function applyStates(home: Home, entities: Record<string, unknown>, context: Context): Promise<void> {
  const plan: Array<[string, string, Record<string, unknown>]> = [];
  for (const [entityId, raw] of Object.entries(entities)) {
    if (!home.states.get(entityId)) throw notFound(`Entity ${entityId} not found.`);
    const wanted: Wanted =
      typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? (raw as Wanted) : { state: raw };
    const domain = entityId.slice(0, entityId.indexOf('.'));
    for (const [service, data] of callsFor(domain, wanted)) {
      if (!home.hasService(domain, service))
        throw invalid('entities', `${entityId} cannot be set to ${JSON.stringify(wanted.state)}`);
      plan.push([domain, service, { ...data, entity_id: entityId }]);
    }
  }
  for (const [domain, service, data] of plan) await home.callService(domain, service, data, { context });
}

export const scene: DomainModule = {
  domain: 'scene',
  services: [
    {
      service: 'turn_on',
      name: 'Activate',
      description: 'Activates a scene.',
      fields: { transition: float({ min: 0, max: 300 }) },
      targets: true,
      async run(_d, ctx) {
        const ids = ctx.entityIds ?? [];
        for (const id of ids) if (!id.startsWith('scene.')) throw notFound(`Entity ${id} not found.`);
        for (const id of ids) {
          await applyStates(
            ctx.home,
            (ctx.home.entityOptions.get(id)?.entities ?? {}) as Record<string, unknown>,
            ctx.context,
          );
          const s = ctx.home.states.get(id)!;
          ctx.home.states.set(id, isoUs(ctx.home.nowUs()), s.attributes, ctx.context);
        }
      },
    },
    {
      service: 'apply',
      name: 'Apply',
      description: 'Activates a scene with configuration.',
      fields: { entities: required(object()), transition: float({ min: 0, max: 300 }) },
      run: (d, ctx) => applyStates(ctx.home, d.entities as Record<string, unknown>, ctx.context),
    },
  ],
  setup(device, home) {
    const entities = (typeof device.entities === 'object' && device.entities !== null ? device.entities : {}) as Record<
      string,
      unknown
    >;
    home.entityOptions.set(`scene.${device.id}`, { entities });
    return {
      state: 'unknown',
      attributes: {
        entity_id: Object.keys(entities),
        id: device.id,
        ...(typeof device.icon === 'string' ? { icon: device.icon } : {}),
        friendly_name: device.name,
      },
    };
  },
};
