// The services Hamlet knows, loaded on demand so `--services blog` loads only the blog.
// Adding a service is adding its folder and one `registerService` line here
// (docs/adding-a-service.md). Each loader imports the service's declaration (its index.ts),
// which loads its running part only when it starts.
import type { ServiceDefinition } from '../platform/service.js';

/** A service's name as registered (its folder's name, the prefix of its tables). */
export type ServiceName = string;

const loaders = new Map<ServiceName, () => Promise<ServiceDefinition>>();

/**
 * Registers a service under its name; the registry's own lines below, and tests' fixture services.
 * Returns what takes it out again: test files share one module registry (vitest runs them
 * without isolation), so a fixture service must not outlive its file.
 */
export function registerService(name: ServiceName, load: () => Promise<ServiceDefinition>): () => void {
  if (!/^[a-z][a-z0-9]*$/.test(name))
    throw new Error(`a service name is lower-case letters and digits (it prefixes tables and settings): ${name}`);
  loaders.set(name, load);
  return () => void loaders.delete(name);
}

registerService('blog', async () => (await import('./blog/index.js')).default);
registerService('mail', async () => (await import('./mail/index.js')).default);
registerService('community', async () => (await import('./community/index.js')).default);
registerService('home', async () => (await import('./home/index.js')).default);
registerService('workflow', async () => (await import('./workflow/index.js')).default);

/** Every registered service's name, in registration order (the default selection, the help's order). */
export function registeredServices(): ServiceName[] {
  return [...loaders.keys()];
}

export async function loadService(name: ServiceName): Promise<ServiceDefinition> {
  const load = loaders.get(name);
  if (!load) throw new Error(`no service named ${name} (known: ${registeredServices().join(', ')})`);
  return load();
}

/** The services registered above (Hamlet's own), for callers that want the list as a value. */
export const SERVICE_NAMES: readonly ServiceName[] = registeredServices();
