// The house config file: location, devices and automations. The demo house ships beside
// this file and is copied to the data directory on first start, where the user edits it.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ConfigError } from '../../platform/settings.js';
import type { LocationConfig } from './core/home.js';
import { isValidEntityId, slugify } from './core/state.js';
import type { DeviceConfig } from './entities/index.js';
import { readRegistry } from './core/registry/config.js';
import type { Registry } from './core/registry/registry.js';

export interface HouseConfig {
  location: LocationConfig;
  devices: DeviceConfig[];
  automations: Record<string, unknown>[];
  /** Floors, areas, labels, devices and entities (core/registry/config.ts). */
  registry: Registry;
}

/** HA's top-level helper and script keys, each a mapping of object id to options. */
const KEYED_DOMAINS = ['input_boolean', 'input_number', 'input_select', 'input_text', 'counter', 'timer', 'script'];

const DEMO_HOUSE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'demo-house.yaml');

const DEFAULT_LOCATION: LocationConfig = {
  location_name: 'Home',
  latitude: 52.37,
  longitude: 4.89,
  elevation: 0,
  time_zone: 'UTC',
  currency: 'EUR',
  country: null,
  language: 'en',
  unit_system: 'metric',
};

/** Reads the house file, first copying the demo house to it when it does not exist (and was not named explicitly). */
export function loadHouse(file: string, explicit: boolean, knownDomains: string[]): HouseConfig {
  if (!existsSync(file)) {
    if (explicit) throw new ConfigError([`HOME_CONFIG=${file}: file not found`]);
    mkdirSync(path.dirname(file), { recursive: true });
    copyFileSync(DEMO_HOUSE, file);
  }
  let doc: unknown;
  try {
    doc = parse(readFileSync(file, 'utf8')) ?? {};
  } catch (err) {
    throw new ConfigError([`${file}: not valid YAML (${(err as Error).message.split('\n')[0]})`]);
  }
  return validateHouse(doc, file, knownDomains);
}

function validateHouse(doc: unknown, file: string, knownDomains: string[]): HouseConfig {
  const problems: string[] = [];
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc))
    throw new ConfigError([`${file}: expected a mapping at the top level`]);
  const d = doc as Record<string, unknown>;
  const ha = (d.homeassistant ?? {}) as Record<string, unknown>;
  const location: LocationConfig = { ...DEFAULT_LOCATION };
  for (const key of Object.keys(DEFAULT_LOCATION) as Array<keyof LocationConfig>) {
    if (ha[key] !== undefined) (location as unknown as Record<string, unknown>)[key] = ha[key];
  }
  if (!Intl.supportedValuesOf('timeZone').includes(location.time_zone) && location.time_zone !== 'UTC')
    problems.push(`${file}: homeassistant.time_zone ${location.time_zone} is not a known time zone`);
  if (location.unit_system !== 'metric' && location.unit_system !== 'us_customary')
    problems.push(`${file}: homeassistant.unit_system must be metric or us_customary`);

  const devices: DeviceConfig[] = [];
  const rawDevices = d.devices ?? [];
  if (!Array.isArray(rawDevices)) problems.push(`${file}: devices must be a list`);
  else
    [...rawDevices, ...haStyleEntities(d, file, problems)].forEach((raw, i) => {
      const dev = raw as DeviceConfig;
      if (typeof dev !== 'object' || dev === null) return problems.push(`${file}: devices[${i}] must be a mapping`);
      if (!knownDomains.includes(dev.domain))
        return problems.push(
          `${file}: devices[${i}].domain ${String(dev.domain)} is not one of ${knownDomains.join(', ')}`,
        );
      if (typeof dev.id !== 'string' || !isValidEntityId(`${dev.domain}.${dev.id}`))
        return problems.push(`${file}: devices[${i}].id must be lowercase letters, digits and single underscores`);
      devices.push({ ...dev, name: typeof dev.name === 'string' ? dev.name : dev.id.replace(/_/g, ' ') });
    });

  const rawAutos = d.automation ?? d.automations ?? [];
  if (!Array.isArray(rawAutos)) problems.push(`${file}: automation must be a list`);
  const registry = readRegistry(d, devices, file, problems);
  if (problems.length) throw new ConfigError(problems);
  return {
    location,
    devices,
    registry,
    automations: (rawAutos as Record<string, unknown>[]).filter((a) => typeof a === 'object' && a !== null),
  };
}

/**
 * Helpers, scripts and scenes written as HA writes them (`input_boolean: {guest_mode: {name: ...}}`,
 * `script: {morning: {alias, sequence}}`, `scene: [{name, entities}]`), as device entries.
 */
function haStyleEntities(d: Record<string, unknown>, file: string, problems: string[]): DeviceConfig[] {
  const out: DeviceConfig[] = [];
  for (const domain of KEYED_DOMAINS) {
    const section = d[domain];
    if (section === undefined || section === null) continue;
    if (typeof section !== 'object' || Array.isArray(section)) {
      problems.push(`${file}: ${domain} must be a mapping of id to options`);
      continue;
    }
    for (const [id, options] of Object.entries(section as Record<string, unknown>)) {
      const o = (options ?? {}) as Record<string, unknown>;
      out.push({
        ...o,
        domain,
        id,
        name: typeof o.name === 'string' ? o.name : typeof o.alias === 'string' ? o.alias : undefined,
      });
    }
  }
  const scenes = d.scene ?? [];
  if (!Array.isArray(scenes)) problems.push(`${file}: scene must be a list`);
  else
    for (const sc of scenes as Record<string, unknown>[]) {
      if (typeof sc !== 'object' || sc === null || typeof sc.name !== 'string') {
        problems.push(`${file}: every scene needs a name`);
        continue;
      }
      out.push({ ...sc, domain: 'scene', id: typeof sc.id === 'string' ? sc.id : slugify(sc.name), name: sc.name });
    }
  return out;
}
