// Shutdown always ends: a service part whose stop never settles (a request that never ends, a
// run that ignores its abort) is logged as an error after its grace period, and the rest of
// the shutdown (other services, then the platform and its storage) goes on without it.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { defineService, noJobs } from '../../src/platform/service.js';
import { startHamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';

it('a service that never stops is given up on after its grace period, and the platform still closes', async () => {
  const storage = await testStorage();
  const lines: string[] = [];
  const logger = pino(
    { level: 'error' },
    new Writable({ write: (chunk, _e, cb) => (lines.push(chunk.toString()), cb()) }),
  );
  let otherStopped = false;
  const stuck = defineService({
    name: 'stuck',
    migrations: {},
    adminKeys: false,
    settings: () => ({ port: 0 }),
    queues: noJobs,
    start: async () => ({ urls: {}, stop: () => new Promise<void>(() => {}) }),
  });
  const polite = defineService({
    name: 'polite',
    migrations: {},
    adminKeys: false,
    settings: () => ({ port: 0 }),
    queues: noJobs,
    start: async () => ({ urls: {}, stop: async () => void (otherStopped = true) }),
  });
  const config = loadConfig(testEnv(storage, ['blog']));
  const hamlet = await startHamlet(config, {
    logger,
    stopGraceMs: 200,
    services: [
      { definition: polite, settings: { port: 0 } },
      { definition: stuck, settings: { port: 0 } },
    ],
  });
  // The stuck service never stops: stop() returning at all (within the test's timeout) is the proof.
  await hamlet.stop();
  expect(otherStopped).toBe(true);
  expect(lines.join('')).toContain('did not stop within its grace period');
  // The storage was closed after all: the database refuses work.
  await expect(hamlet.platform.db.kysely.selectFrom('platform_jobs').selectAll().execute()).rejects.toThrow();
  await storage.drop();
});
