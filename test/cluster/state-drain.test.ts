// Graceful shutdown as a load balancer needs it, on any storage (no Redis needed): stop()
// turns readiness to 503 at once, keeps serving through HAMLET_SHUTDOWN_DRAIN, then closes
// the listener only after the request in flight was answered, and its close does not wait for
// the keep-alive connection that request came on.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createApp, listen } from '../../src/platform/http.js';
import { defineService, noJobs } from '../../src/platform/service.js';
import { startHamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

it('a stopping process answers readiness 503, serves through the drain, and answers the request in flight before it closes', async () => {
  const storage = await testStorage();
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let slowArrived = false;
  const slow = defineService({
    name: 'slow',
    migrations: {},
    adminKeys: false,
    settings: () => ({ port: 0 }),
    queues: noJobs,
    async start(platform) {
      const app = await createApp(
        { logger: platform.logger, health: platform.health },
        { service: 'slow', envelope: (e) => ({ message: e.message }) },
      );
      app.get('/slow', { schema: { hide: true } }, async () => {
        slowArrived = true;
        await released;
        return { finished: true };
      });
      app.get('/quick', { schema: { hide: true } }, async () => ({ quick: true }));
      const url = await listen(app, platform.config.host, 0);
      return { urls: { api: url }, stop: () => app.close() };
    },
  });
  const config = loadConfig(testEnv(storage, ['blog'], { HAMLET_SHUTDOWN_DRAIN: '500ms' }));
  const errors: string[] = [];
  const logger = pino(
    { level: 'error' },
    new Writable({ write: (chunk, _e, cb) => (errors.push(chunk.toString()), cb()) }),
  );
  // A close held up by an open connection would be given up on after this grace, with an error logged.
  const hamlet = await startHamlet(config, {
    logger,
    stopGraceMs: 5000,
    services: [{ definition: slow, settings: { port: 0 } }],
  });
  const base = hamlet.services['slow' as 'blog']!.urls.api;
  try {
    expect((await fetch(base + '/healthz/readiness')).status).toBe(200);
    const inFlight = fetch(base + '/slow').then(async (r) => ({ status: r.status, body: await r.json() }));
    await waitFor(() => slowArrived, { message: 'the slow request to arrive' });

    let stopped = false;
    const stopping = hamlet.stop().then(() => void (stopped = true));
    const ready = await fetch(base + '/healthz/readiness');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'error', reason: 'stopping' });
    expect((await fetch(base + '/quick')).status).toBe(200); // still serving during the drain

    // After the drain the listener closes, but not before the request in flight is answered.
    await waitFor(
      async () =>
        (await fetch(base + '/quick').then(
          () => 'open',
          () => 'closed',
        )) === 'closed',
      { message: 'the listener to close after the drain' },
    );
    expect(stopped).toBe(false);
    release();
    expect(await inFlight).toEqual({ status: 200, body: { finished: true } });
    await stopping;
    expect(errors.join('')).not.toContain('did not stop within its grace period');
  } finally {
    release();
    await hamlet.stop();
    await storage.drop();
  }
});
