// The home's settings (HOME_*, MQTT_*), read with the platform's kit.
import path from 'node:path';
import type { PlatformSettings } from '../../platform/service.js';
import type { SettingsKit } from '../../platform/settings.js';
import { DEFAULT_ATTRIBUTE_LIMITS } from './core/states.js';

export interface HomeSettings {
  port: number;
  /** The house config file (devices, location, automations): HOME_CONFIG, else home.yaml in the data directory, copied from the demo house on first start. */
  configFile: string;
  /** Whether HOME_CONFIG named the file (then it must exist; the default is created). */
  configExplicit: boolean;
  /** Recorder retention in days (HA's purge_keep_days). */
  keepDays: number;
  /** Outgoing bytes a WebSocket client may have queued before it is cut off. */
  wsMaxBufferedBytes: number;
  /** Limits on one entity's attributes, so one oversized state cannot break every reader. */
  attributeLimits: { maxDepth: number; maxBytes: number };
  mqtt?: { url: string; discoveryPrefix: string; username?: string; password?: string };
}

export function readHomeSettings(kit: SettingsKit, platform: Pick<PlatformSettings, 'dataDir'>): HomeSettings {
  const mqttUrl = kit.url('MQTT_URL', ['mqtt:', 'mqtts:', 'ws:', 'wss:', 'tcp:']);
  return {
    port: kit.port('HOME_PORT', 8123, 'home-port'),
    configFile: kit.raw('HOME_CONFIG')
      ? path.resolve(kit.raw('HOME_CONFIG')!)
      : path.join(platform.dataDir, 'home.yaml'),
    configExplicit: kit.raw('HOME_CONFIG') !== undefined,
    keepDays: kit.positive('HOME_RECORDER_KEEP_DAYS', 10),
    wsMaxBufferedBytes: kit.positive('HOME_WS_MAX_BUFFER', 16 * 1024 * 1024, true),
    attributeLimits: {
      maxDepth: kit.positive('HOME_MAX_ATTRIBUTE_DEPTH', DEFAULT_ATTRIBUTE_LIMITS.maxDepth, true),
      maxBytes: kit.positive('HOME_MAX_ATTRIBUTES_BYTES', DEFAULT_ATTRIBUTE_LIMITS.maxBytes, true),
    },
    mqtt: mqttUrl && {
      url: kit.raw('MQTT_URL')!,
      discoveryPrefix: kit.text('MQTT_DISCOVERY_PREFIX', 'homeassistant'),
      username: kit.raw('MQTT_USERNAME'),
      password: kit.raw('MQTT_PASSWORD'),
    },
  };
}
