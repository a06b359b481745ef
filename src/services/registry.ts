// The services Hamlet knows, loaded on demand so `--services blog` loads only the blog.
// Adding a service is adding one line here.
import type { ServiceName } from '../config.js';
import type { ServiceDefinition } from '../platform/service.js';

const loaders: Partial<Record<ServiceName, () => Promise<ServiceDefinition>>> = {
  blog: async () => (await import('./blog/index.js')).default,
  mail: async () => (await import('./mail/index.js')).default,
  community: async () => (await import('./community/index.js')).default,
  home: async () => (await import('./home/index.js')).default,
  workflow: async () => (await import('./workflow/index.js')).default,
};

export async function loadService(name: ServiceName): Promise<ServiceDefinition | undefined> {
  return loaders[name]?.();
}
