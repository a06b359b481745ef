// What most commands do first: read the configuration (environment, then flags), and open the
// platform quietly on the configured storage. Kept apart from cli.ts so `--version` and `help`
// load none of it.
import { configure, loadConfig, type HamletConfig } from '../config.js';
import type { PortSetting } from '../platform/settings.js';
import type { ConfiguredService, Platform } from '../platform/service.js';

/** The configuration once loaded, so a failure can name the setting behind it (cli.ts). */
export let loaded: { config: HamletConfig; ports: PortSetting[] } | undefined;

export async function configured(
  flags: Record<string, string>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ config: HamletConfig; services: ConfiguredService[] }> {
  const { config, services, ports } = await configure(env, flags);
  loaded = { config, ports };
  return { config, services };
}

/**
 * The platform's settings alone (storage, Redis, the queue prefix): for commands that run no
 * service (`hamlet keys`), which so read no service's declaration or settings.
 */
export function platformConfigured(flags: Record<string, string>, env: NodeJS.ProcessEnv = process.env): HamletConfig {
  const config = loadConfig(env, flags);
  loaded = { config, ports: [] };
  return config;
}

/** Opens the platform with the given services' tables migrated, runs `work`, closes it. */
export async function withPlatform<T>(
  config: HamletConfig,
  services: ConfiguredService[],
  work: (platform: Platform) => Promise<T>,
): Promise<T> {
  const { closePlatform, openPlatform } = await import('../server.js');
  const { migrate } = await import('../platform/db.js');
  const { createLogger } = await import('../platform/logger.js');
  const platform = await openPlatform(config, { logger: createLogger({ level: 'warn', pretty: false }) });
  try {
    for (const { definition } of services) await migrate(platform.db, definition.name, definition.migrations);
    return await work(platform);
  } finally {
    await closePlatform(platform);
  }
}
