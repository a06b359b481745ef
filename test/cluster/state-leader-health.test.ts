// The platform's cluster pieces on their own: leader leases in Redis (one leader at a time,
// handed over on stop, taken over when a leader vanishes) and readiness (starting, serving,
// stopping, database unreachable). The lease tests need TEST_REDIS_URL; readiness needs nothing.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/platform/db.js';
import { Health } from '../../src/platform/health.js';
import { Leaders } from '../../src/platform/leader.js';
import { createLogger } from '../../src/platform/logger.js';
import { settle, waitFor } from '../helpers/wait.js';

const redisUrl = process.env.TEST_REDIS_URL;
const logger = createLogger({ level: 'silent', pretty: false });
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const f of cleanup.reverse()) await f();
});

/** Processes of one cluster: the same key prefix, a short lease so a takeover is quick. */
function processes(n: number, leaseMs = 600): { all: Leaders[]; prefix: string } {
  const prefix = `hamlet-lt-${randomUUID()}`;
  const all = Array.from({ length: n }, () => new Leaders(redisUrl, prefix, logger, leaseMs));
  cleanup.push(async () => void (await Promise.all(all.map((l) => l.close()))));
  return { all, prefix };
}

const leading = (all: Leaders[], name: string) => all.filter((l) => l.of(name).isLeader());

describe.skipIf(!redisUrl)('leader leases', () => {
  it('one process of three leads a name; each name has its own leader', async () => {
    const { all } = processes(3);
    await waitFor(() => leading(all, 'workflow').length === 1, { message: 'one workflow leader' });
    await waitFor(() => leading(all, 'home').length === 1, { message: 'one home leader' });
    // Renewals keep the same leader across several leases.
    const [first] = leading(all, 'workflow');
    for (let i = 0; i < 5; i++) {
      await settle(200); // leadership not moving is observed over several lease renewals
      expect(leading(all, 'workflow')).toEqual([first]);
    }
  });

  it('a stopping leader hands over; a vanished one is replaced when its lease runs out', async () => {
    const { all, prefix } = processes(3);
    await waitFor(() => leading(all, 'workflow').length === 1);
    const [first] = leading(all, 'workflow');
    await first.close();
    const rest = all.filter((l) => l !== first);
    await waitFor(() => leading(rest, 'workflow').length === 1, { message: 'a new leader after a stop' });
    // A leader that loses its lease (as when Redis forgot it, or it stalled past it) steps down,
    // and another takes over: never two at once.
    const [second] = leading(rest, 'workflow');
    const redis = new Redis(redisUrl!);
    cleanup.push(async () => void redis.disconnect());
    const key = `${prefix}:leader:workflow`;
    expect(await redis.get(key)).toBe(second.id);
    await redis.set(key, 'someone-else', 'PX', 600);
    await waitFor(() => !second.of('workflow').isLeader(), { message: 'the old leader to step down' });
    await waitFor(() => leading(rest, 'workflow').length === 1, {
      message: 'a leader again once the foreign lease ran out',
    });
  });
});

describe('readiness', () => {
  it('is false while starting, true while serving with a database, false while stopping', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-health-'));
    const db = openDb({ dataDir: dir });
    try {
      const health = new Health(db);
      expect(await health.readiness()).toEqual({ ready: false, reason: 'starting' });
      health.serving();
      expect(await health.readiness()).toEqual({ ready: true });
      health.stopping();
      expect(await health.readiness()).toEqual({ ready: false, reason: 'stopping' });
      health.serving(); // a stopping process does not come back
      expect((await health.readiness()).ready).toBe(false);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is false while the database does not answer', async () => {
    // A PostgreSQL URL on a port nobody listens on: every query fails.
    const db = openDb({ dataDir: os.tmpdir(), databaseUrl: 'postgres://postgres@127.0.0.1:1/none' });
    try {
      const health = new Health(db);
      health.serving();
      expect(await health.readiness()).toEqual({ ready: false, reason: 'database unreachable' });
    } finally {
      await db.close();
    }
  });
});
