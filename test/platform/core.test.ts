import { afterEach, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/commands/args.js';
import { configure, loadConfig } from '../../src/config.js';
import { ConfigError } from '../../src/platform/settings.js';
import { ManualClock } from '../../src/platform/clock.js';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { PermanentError } from '../../src/platform/errors.js';
import { TableJobs } from '../../src/platform/jobs.js';
import { Keys, hashKey } from '../../src/platform/keys.js';
import { createLogger } from '../../src/platform/logger.js';
import { platformMigrations } from '../../src/platform/migrations.js';
import { busLinked } from '../helpers/bus.js';
import { testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

const logger = createLogger({ level: 'silent', pretty: false });

describe('config', () => {
  it('has the documented defaults', async () => {
    const { config: c, services, ports } = await configure({}, {});
    expect(c.dataDir).toBe('./data');
    expect(c.host).toBe('127.0.0.1');
    expect(Object.fromEntries(ports.map((p) => [p.setting, p.port]))).toEqual({
      HAMLET_CONSOLE_PORT: 4900,
      BLOG_PORT: 4000,
      MAIL_PORT: 4100,
      SMTP_PORT: 2525,
      MAIL_SUBMISSION_PORT: 2587,
      COMMUNITY_PORT: 4200,
      HOME_PORT: 8123,
      WORKFLOW_PORT: 5678,
    });
    expect(services.find((s) => s.definition.name === 'blog')!.settings).toMatchObject({ domain: 'blog.localhost' });
    expect(c.rateLimits.enabled).toBe(true);
    expect(c.services).toEqual(['blog', 'mail', 'community', 'home', 'workflow']);
    expect(c.console).toEqual({ enabled: true, port: 4900, sessionTtlMs: 12 * 3600_000 });
    expect(c.mcp).toEqual({ allowedOrigins: [] });
  });

  it('reports every bad value of the platform and of every service at once, each with its own message', async () => {
    try {
      await configure(
        {
          BLOG_PORT: 'abc',
          SMTP_PORT: '70000',
          DATABASE_URL: 'mysql://x',
          HAMLET_SMTP_RELAY: 'nope',
          HAMLET_RATE_LIMITS: 'maybe',
          HAMLET_RATE_BLOG_PUBLISH: 'lots',
        },
        {},
      );
      expect.fail('should throw');
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      const problems = (e as ConfigError).problems;
      expect(problems.some((p) => p.startsWith('BLOG_PORT=abc'))).toBe(true);
      expect(problems.some((p) => p.startsWith('SMTP_PORT=70000'))).toBe(true);
      expect(problems.some((p) => p.startsWith('DATABASE_URL'))).toBe(true);
      expect(problems.some((p) => p.startsWith('HAMLET_SMTP_RELAY'))).toBe(true);
      expect(problems.some((p) => p.startsWith('HAMLET_RATE_LIMITS'))).toBe(true);
      expect(problems.some((p) => p.startsWith('HAMLET_RATE_BLOG_PUBLISH'))).toBe(true);
    }
  });

  it('takes --services and rate-limit overrides', () => {
    const { flags, positional } = parseArgs(['start', '--services', 'blog', '--pretty']);
    expect(positional).toEqual(['start']);
    const c = loadConfig({ HAMLET_RATE_BLOG_PUBLISH: '5/1m', HAMLET_SMTP_RELAY: 'smtp://127.0.0.1:2626' }, flags);
    expect(c.services).toEqual(['blog']);
    expect(c.prettyLogs).toBe(true);
    expect(c.rateLimits.overrides['blog_publish']).toEqual({ max: 5, windowMs: 60_000 });
    expect(c.smtpRelay).toMatchObject({ host: '127.0.0.1', port: 2626, secure: false });
    expect(() => loadConfig({}, { services: 'blog,nope' })).toThrow(/unknown service nope/);
  });
});

describe('keys and jobs', () => {
  let db: Db;
  let drop: () => Promise<void>;
  const clock = new ManualClock('2026-03-01T00:00:00Z');

  async function open() {
    const s = await testStorage();
    drop = s.drop;
    db = openDb({ dataDir: s.dataDir, databaseUrl: s.databaseUrl });
    await migrate(db, 'platform', platformMigrations);
  }
  afterEach(async () => {
    await db.close();
    await drop();
  });

  it('stores only the SHA-256 digest of a key and finds it again', async () => {
    await open();
    const keys = new Keys(db, clock);
    const { key, record } = await keys.create('mail', { name: 'ci' });
    expect(key).toMatch(/^hamlet_mail_[0-9A-Za-z]{32}$/);
    const rows = await db.kysely.selectFrom('platform_keys').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(key);
    expect(rows[0].hash).toBe(hashKey(key));
    expect((await keys.verify('mail', key))?.id).toBe(record.id);
    expect(await keys.verify('home', key)).toBeUndefined();
    expect(await keys.verify('mail', key + 'x')).toBeUndefined();
    expect(await keys.revoke({ service: 'mail', id: record.id })).toBe(1);
    expect(await keys.verify('mail', key)).toBeUndefined();
  });

  it('retries a failing job with backoff, gives up after max attempts and survives a restart', async () => {
    await open();
    const seen: number[] = [];
    const failed: string[] = [];
    let jobs = new TableJobs(db, clock, logger, 20);
    jobs.register<{ n: number }>(
      't',
      async (p, info) => {
        seen.push(info.attempt);
        throw new Error('boom ' + p.n);
      },
      { maxAttempts: 3, backoffMs: () => 60_000, onFailed: async (_p, err) => void failed.push(err.message) },
    );
    await jobs.enqueue('t', { n: 1 });
    await jobs.start();
    await jobs.idle(['t']);
    expect(seen).toEqual([1]);
    // Not due until the clock moves past the backoff.
    clock.advance(61_000);
    await jobs.idle(['t']);
    expect(seen).toEqual([1, 2]);
    await jobs.stop();

    // A new worker on the same table (a restart) picks the job up where it was.
    jobs = new TableJobs(db, clock, logger, 20);
    jobs.register<{ n: number }>(
      't',
      async (_p, info) => {
        seen.push(info.attempt);
        throw new Error('still broken');
      },
      { maxAttempts: 3, backoffMs: () => 60_000, onFailed: async (_p, err) => void failed.push(err.message) },
    );
    await jobs.start();
    clock.advance(61_000);
    await jobs.idle(['t']);
    expect(seen).toEqual([1, 2, 3]);
    expect(failed).toEqual(['still broken']);
    const row = await db.kysely.selectFrom('platform_jobs').selectAll().executeTakeFirstOrThrow();
    expect(row.status).toBe('failed');
    await jobs.stop();
  });

  it('stops at once on a permanent error and deletes finished jobs', async () => {
    await open();
    const jobs = new TableJobs(db, clock, logger, 20);
    const done: number[] = [];
    jobs.register<{ n: number }>('p', async (p) => {
      if (p.n === 2) throw new PermanentError('no such mailbox');
      done.push(p.n);
    });
    await jobs.enqueue('p', { n: 1 });
    await jobs.enqueue('p', { n: 2 });
    await jobs.start();
    await jobs.idle(['p']);
    expect(done).toEqual([1]);
    const rows = await db.kysely.selectFrom('platform_jobs').select(['status', 'attempts']).execute();
    expect(rows).toEqual([{ status: 'failed', attempts: 1 }]);
    await jobs.stop();
  });
});

describe('event bus', () => {
  it('delivers in process', async () => {
    const { LocalEventBus } = await import('../../src/platform/events.js');
    const bus = new LocalEventBus();
    const got: unknown[] = [];
    const off = bus.subscribe('t', (p) => void got.push(p));
    await bus.publish('t', { a: 1 });
    off();
    await bus.publish('t', { a: 2 });
    expect(got).toEqual([{ a: 1 }]);
  });

  it.runIf(process.env.TEST_REDIS_URL)('fans out across instances through Redis', async () => {
    const { RedisEventBus } = await import('../../src/platform/events.js');
    const prefix = `hamlet-test-${Date.now()}:`;
    const a = new RedisEventBus(process.env.TEST_REDIS_URL!, undefined, prefix);
    const b = new RedisEventBus(process.env.TEST_REDIS_URL!, undefined, prefix);
    const got: unknown[] = [];
    b.subscribe('changed', (p) => void got.push(p));
    await busLinked(a, b);
    await a.publish('changed', { slug: 'x' });
    await waitFor(() => got.length > 0, { message: "the 'changed' message at the other instance" });
    expect(got).toEqual([{ slug: 'x' }]);
    await a.close();
    await b.close();
  });
});
