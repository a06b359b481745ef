// The docs tests' view of a test instance: where the docs' default ports are on it, and the
// environment that points `npx hamlet` (the CLI on the sources) at its storage.
import { SERVICE_NAMES } from '../../src/services/registry.js';
import type { TestHamlet } from '../helpers/hamlet.js';
import type { PortMap } from './shell-script.js';

const DEFAULT_PORTS: Record<string, { service: (typeof SERVICE_NAMES)[number]; label: string }> = {
  '4000': { service: 'blog', label: 'api' },
  '4100': { service: 'mail', label: 'api' },
  '2525': { service: 'mail', label: 'smtp' },
  '2587': { service: 'mail', label: 'submission' },
  '4200': { service: 'community', label: 'api' },
  '8123': { service: 'home', label: 'api' },
  '5678': { service: 'workflow', label: 'api' },
};

/** Each default port of the docs, with the one the instance got (the console's 4900 too). */
export function testPorts(t: TestHamlet): PortMap {
  const port = (service: (typeof SERVICE_NAMES)[number], label: string) => new URL(t.url(service, label)).port;
  return [...Object.entries(DEFAULT_PORTS).map(([from, { service, label }]) => [from, port(service, label)] as const), ['4900', new URL(t.hamlet.console!.urls.web).port] as const];
}

export function docsEnv(t: TestHamlet): NodeJS.ProcessEnv {
  return { ...process.env, HAMLET_DATA_DIR: t.dataDir, HAMLET_LOG_LEVEL: 'warn', ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : {}) };
}
