// The home's settings from the environment, validated at start (ConfigError lists every problem).
import path from 'node:path';
import { ConfigError } from '../../config.js';
import { DEFAULT_ATTRIBUTE_LIMITS } from './core/states.js';

export interface HomeSettings {
  /** The house config file (devices, location, automations); copied from the demo house on first start. */
  configFile: string;
  /** Recorder retention in days (HA's purge_keep_days). */
  keepDays: number;
  /** Outgoing bytes a WebSocket client may have queued before it is cut off. */
  wsMaxBufferedBytes: number;
  /** Limits on one entity's attributes, so one oversized state cannot break every reader. */
  attributeLimits: { maxDepth: number; maxBytes: number };
  mqtt?: { url: string; discoveryPrefix: string; username?: string; password?: string };
}

export function loadHomeSettings(env: Record<string, string | undefined>, dataDir: string): HomeSettings {
  const problems: string[] = [];
  const positive = (name: string, fallback: number, integer = false): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      problems.push(`${name}=${raw}: expected a positive ${integer ? 'whole ' : ''}number`);
      return fallback;
    }
    return n;
  };
  const keepDays = positive('HOME_RECORDER_KEEP_DAYS', 10);
  const wsMaxBufferedBytes = positive('HOME_WS_MAX_BUFFER', 16 * 1024 * 1024, true);
  const attributeLimits = {
    maxDepth: positive('HOME_MAX_ATTRIBUTE_DEPTH', DEFAULT_ATTRIBUTE_LIMITS.maxDepth, true),
    maxBytes: positive('HOME_MAX_ATTRIBUTES_BYTES', DEFAULT_ATTRIBUTE_LIMITS.maxBytes, true),
  };
  let mqtt: HomeSettings['mqtt'];
  const mqttUrl = env.MQTT_URL;
  if (mqttUrl) {
    try {
      const u = new URL(mqttUrl);
      if (!['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:'].includes(u.protocol)) problems.push(`MQTT_URL=${mqttUrl}: expected an mqtt://, mqtts://, ws:// or wss:// URL`);
      mqtt = {
        url: mqttUrl,
        discoveryPrefix: env.MQTT_DISCOVERY_PREFIX || 'homeassistant',
        username: env.MQTT_USERNAME || undefined,
        password: env.MQTT_PASSWORD || undefined,
      };
    } catch {
      problems.push(`MQTT_URL=${mqttUrl}: not a valid URL`);
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    configFile: env.HOME_CONFIG ? path.resolve(env.HOME_CONFIG) : path.join(dataDir, 'home.yaml'),
    keepDays,
    wsMaxBufferedBytes,
    attributeLimits,
    mqtt,
  };
}
