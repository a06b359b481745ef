// The house config file: location, devices and automations. The demo house ships beside
// this file and is copied to the data directory on first start, where the user edits it.
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { ConfigError } from '../../config.js';
import type { LocationConfig } from './core/home.js';
import { isValidEntityId } from './core/state.js';
import type { DeviceConfig } from './entities/index.js';

export interface HouseConfig {
  location: LocationConfig;
  devices: DeviceConfig[];
  automations: Record<string, unknown>[];
}

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
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new ConfigError([`${file}: expected a mapping at the top level`]);
  const d = doc as Record<string, unknown>;
  const ha = (d.homeassistant ?? {}) as Record<string, unknown>;
  const location: LocationConfig = { ...DEFAULT_LOCATION };
  for (const key of Object.keys(DEFAULT_LOCATION) as Array<keyof LocationConfig>) {
    if (ha[key] !== undefined) (location as unknown as Record<string, unknown>)[key] = ha[key];
  }
  if (!Intl.supportedValuesOf('timeZone').includes(location.time_zone) && location.time_zone !== 'UTC') problems.push(`${file}: homeassistant.time_zone ${location.time_zone} is not a known time zone`);
  if (location.unit_system !== 'metric' && location.unit_system !== 'us_customary') problems.push(`${file}: homeassistant.unit_system must be metric or us_customary`);

  const devices: DeviceConfig[] = [];
  const rawDevices = d.devices ?? [];
  if (!Array.isArray(rawDevices)) problems.push(`${file}: devices must be a list`);
  else
    rawDevices.forEach((raw, i) => {
      const dev = raw as DeviceConfig;
      if (typeof dev !== 'object' || dev === null) return problems.push(`${file}: devices[${i}] must be a mapping`);
      if (!knownDomains.includes(dev.domain)) return problems.push(`${file}: devices[${i}].domain ${String(dev.domain)} is not one of ${knownDomains.join(', ')}`);
      if (typeof dev.id !== 'string' || !isValidEntityId(`${dev.domain}.${dev.id}`)) return problems.push(`${file}: devices[${i}].id must be lowercase letters, digits and single underscores`);
      devices.push({ ...dev, name: typeof dev.name === 'string' ? dev.name : dev.id.replace(/_/g, ' ') });
    });

  const rawAutos = d.automation ?? d.automations ?? [];
  if (!Array.isArray(rawAutos)) problems.push(`${file}: automation must be a list`);
  if (problems.length) throw new ConfigError(problems);
  return { location, devices, automations: (rawAutos as Record<string, unknown>[]).filter((a) => typeof a === 'object' && a !== null) };
}
