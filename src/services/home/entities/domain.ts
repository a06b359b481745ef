// What an entity domain provides: its services and how a device from the house config
// becomes an entity. Adding a domain is one file exporting a DomainModule and one line in index.ts.
import type { Home } from '../core/home.js';
import type { ServiceSpec } from '../core/services.js';
import type { DeviceConfig } from '../core/registry/config.js';
import type { Attributes } from '../core/state.js';

export interface DomainModule {
  domain: string;
  services: ServiceSpec[];
  /** The initial state of a configured device. May register per-device services (notify). */
  setup?(device: DeviceConfig, home: Home): { state: string; attributes: Attributes };
}

/** Sums named feature flags from a config list (e.g. ["transition"]) using the domain's table. */
export function featureMask(names: unknown, table: Record<string, number>, fallback: number): number {
  if (!Array.isArray(names)) return fallback;
  return names.reduce((mask: number, n) => mask | (table[String(n).toLowerCase()] ?? 0), 0);
}

/** Per-entity memory across service calls (e.g. the brightness a light had before it went off). */
export function memory(home: Home, entityId: string): Record<string, unknown> {
  let m = home.entityOptions.get(entityId);
  if (!m) home.entityOptions.set(entityId, (m = {}));
  return m;
}

export const num = (v: unknown, fallback: number): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fallback;
