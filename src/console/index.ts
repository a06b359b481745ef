// The web console and admin API: one Fastify app on its own port (HAMLET_CONSOLE_PORT, 4900),
// behind the admin key. It starts after the services, so it can reach their APIs.
import { createApp, listen } from '../platform/http.js';
import type { ConfiguredService, Platform, RunningService } from '../platform/service.js';
import { loadService, registeredServices, type ServiceName } from '../services/registry.js';
import { registerAuth } from './auth.js';
import { refuseFraming } from './frame-guard.js';
import type { ConsoleContext, ConsoleSettings } from './context.js';
import { consoleModules, consoleNav } from './modules.js';
import { ServiceClient } from '../platform/console-client.js';
import { Sessions } from './sessions.js';
import { registerStaticFiles } from './static-files.js';

export interface RunningConsole extends RunningService {
  /** Every route the console serves (the authorization test walks them all). */
  routes: Array<{ method: string; url: string }>;
}

export async function startConsole(
  platform: Platform,
  running: Partial<Record<ServiceName, RunningService>>,
  selected: ConfiguredService[],
  settings: ConsoleSettings,
): Promise<RunningConsole> {
  const client = new ServiceClient(platform);
  await client.prepare(selected.filter((s) => s.definition.adminKeys).map((s) => s.definition.name));
  const ctx: ConsoleContext = { platform, running, selected, client, settings };

  const app = await createApp(platform, {
    service: 'console',
    traced: false,
    readiness: false,
    bodyLimit: 16 * 1024 * 1024, // n8n export files dropped on the workflow page
    envelope: (err) => ({ message: err.message, code: err.code }),
    openapi: { title: 'Hamlet console admin API', version: '1.0.0' },
  });
  // Login and other plain HTML forms.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const routes: RunningConsole['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of ([] as string[]).concat(route.method))
      if (method !== 'HEAD') routes.push({ method, url: route.url });
  });
  refuseFraming(app);
  const sessions = await Sessions.open(platform.db, platform.keys, settings.sessionTtlMs);
  await registerAuth(app, {
    keys: platform.keys,
    sessions,
    limits: platform.limits,
    publicUrl: platform.directory.publicUrl('console'),
  });
  registerStaticFiles(app);
  const registered = await Promise.all(registeredServices().map((name) => loadService(name)));
  const nav = consoleNav(registered);
  app.addHook('onRequest', async (request) => {
    request.consoleNav = nav;
  });
  for (const register of consoleModules(registered)) await register(app, ctx);

  const url = await listen(app, platform.config.host, settings.port);
  return {
    urls: { web: url },
    routes,
    stop: async () => {
      await app.close();
      await client.release();
    },
  };
}
