// cover: moves over (clock) time at `speed` percent per second, showing opening/closing on
// the way and open/closed when it arrives; stop_cover halts it where it is.
import { int, required } from '../core/fields.js';
import type { Home } from '../core/home.js';
import type { Context } from '../core/context.js';
import type { Planned, ServiceContext, ServiceSpec } from '../core/services.js';
import type { State } from '../core/state.js';
import { featureMask, memory, num, type DomainModule } from './domain.js';

const F = {
  open: 1,
  close: 2,
  set_position: 4,
  stop: 8,
  open_tilt: 16,
  close_tilt: 32,
  stop_tilt: 64,
  set_tilt_position: 128,
};
const STEP_MS = 1000;

const restingState = (position: number) => (position <= 0 ? 'closed' : 'open');
const position = (s: State) => num(s.attributes.current_position, 0);

function stopMotion(home: Home, entityId: string) {
  const mem = memory(home, entityId);
  (mem.cancelMotion as (() => void) | undefined)?.();
  mem.cancelMotion = undefined;
}

/** Writes one step of movement each second until the target is reached. */
function move(home: Home, entityId: string, target: number, context: Context) {
  const speed = num(home.entityOptions.get(entityId)?.speed, 10);
  const step = () => {
    const s = home.states.get(entityId);
    if (!s) return;
    const pos = position(s);
    const next = pos < target ? Math.min(target, pos + speed) : Math.max(target, pos - speed);
    const arrived = next === target;
    const state = arrived ? restingState(next) : next > pos ? 'opening' : 'closing';
    home.states.set(entityId, state, { ...s.attributes, current_position: next }, context);
    memory(home, entityId).cancelMotion = arrived ? undefined : home.scheduler.after(STEP_MS, step);
  };
  memory(home, entityId).cancelMotion = home.scheduler.after(STEP_MS, step);
}

/** Plans a movement; the cover starts moving (and any earlier movement stops) once the call is applied. */
function planMove(s: State, target: number, ctx: ServiceContext): Planned {
  const pos = position(s);
  const speed = num(ctx.home.entityOptions.get(s.entity_id)?.speed, 10);
  if (pos === target || speed >= 100) {
    return {
      state: restingState(target),
      attributes: { ...s.attributes, current_position: target },
      then: () => stopMotion(ctx.home, s.entity_id),
    };
  }
  return {
    state: target > pos ? 'opening' : 'closing',
    attributes: s.attributes,
    then: () => {
      stopMotion(ctx.home, s.entity_id);
      move(ctx.home, s.entity_id, target, ctx.context);
    },
  };
}

const services: ServiceSpec[] = [
  { service: 'open_cover', name: 'Open', feature: F.open, fields: {}, plan: (s, _d, ctx) => planMove(s, 100, ctx) },
  { service: 'close_cover', name: 'Close', feature: F.close, fields: {}, plan: (s, _d, ctx) => planMove(s, 0, ctx) },
  {
    service: 'set_cover_position',
    name: 'Set position',
    feature: F.set_position,
    fields: { position: required(int({ min: 0, max: 100 })) },
    plan: (s, d, ctx) => planMove(s, d.position as number, ctx),
  },
  {
    service: 'stop_cover',
    name: 'Stop',
    feature: F.stop,
    fields: {},
    plan: (s, _d, ctx) => ({
      state: restingState(position(s)),
      attributes: s.attributes,
      then: () => stopMotion(ctx.home, s.entity_id),
    }),
  },
  {
    service: 'toggle',
    name: 'Toggle',
    fields: {},
    plan: (s, _d, ctx) => planMove(s, s.state === 'closed' || s.state === 'closing' ? 100 : 0, ctx),
  },
];

export const cover: DomainModule = {
  domain: 'cover',
  services,
  setup(device, home) {
    const pos = num(device.position, 0);
    home.entityOptions.set(`cover.${device.id}`, { speed: num(device.speed, 10) });
    return {
      state: restingState(pos),
      attributes: {
        current_position: pos,
        device_class: typeof device.device_class === 'string' ? device.device_class : 'garage',
        friendly_name: device.name,
        supported_features: featureMask(device.features, F, F.open | F.close | F.set_position | F.stop),
      },
    };
  },
};
