// What the helpers (input_*, counter, timer) share: HA's base attributes of a YAML-defined
// helper, and the entity service shape "compute the next state from the current one".
import type { ServiceContext, ServiceSpec } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import type { Fields } from '../core/fields.js';
import type { DeviceConfig } from '../core/registry/config.js';

/** Attributes every YAML helper has: `editable: false` (HA: only UI-made helpers are editable), icon, name. */
export function helperAttributes(device: DeviceConfig, own: Attributes): Attributes {
  return {
    ...own,
    editable: false,
    ...(typeof device.icon === 'string' ? { icon: device.icon } : {}),
    friendly_name: device.name,
  };
}

/** An entity service whose new state (and attributes) follow from the current state and the call's data. */
export function stateService(
  service: string,
  fields: Fields,
  next: (
    s: State,
    data: Record<string, unknown>,
    ctx: ServiceContext,
  ) => { state: string; attributes?: Attributes; then?: () => void } | null,
): ServiceSpec {
  return { service, fields, plan: (s, d, ctx) => next(s, d, ctx) };
}

export const num = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v)
    ? v
    : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))
      ? Number(v)
      : fallback;
