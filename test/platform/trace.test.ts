// The trace of what agents did: every service's API calls with the id of the key (never the
// key), SMTP messages, home WebSocket commands and domain events; bodies only when asked for,
// redacted and capped; old entries leave by the platform's clock; HAMLET_TRACE=off records nothing.
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { migrate, openDb, type Db } from '../../src/platform/db.js';
import { LocalEventBus } from '../../src/platform/events.js';
import { createLogger } from '../../src/platform/logger.js';
import { platformMigrations } from '../../src/platform/migrations.js';
import { secretPathPattern, secretPathPrefix } from '../../src/platform/redact.js';
import { bodyText, bodyTexts, Trace, type TraceEntry } from '../../src/platform/trace.js';
import { startTestHamlet, testStorage } from '../helpers/hamlet.js';
import { withPlatformDb } from '../helpers/platform-db.js';
import { waitFor } from '../helpers/wait.js';
import { rawSocket } from '../home/helpers.js';
import { smtpSend } from '../mail/helpers.js';
import { startAgentRig, type AgentRig } from '../console/agent-rig.js';

describe('the trace of every service', () => {
  let rig: AgentRig;
  beforeAll(async () => {
    rig = await startAgentRig();
  }, 120_000);
  afterAll(async () => rig?.t.destroy());

  const entries = async (q: Parameters<AgentRig['t']['hamlet']['platform']['trace']['query']>[0] = {}) =>
    (await rig.t.hamlet.platform.trace.query({ limit: 1000, ...q })).entries;

  it('records the HTTP calls of all five services with the route, status and key id, never the key', async () => {
    await rig.call('mail', 'GET', `/v0/inboxes/${rig.inbox}/messages?limit=5`);
    await rig.call('home', 'GET', '/api/states');
    await rig.call('workflow', 'GET', '/api/v1/workflows');
    await rig.call('community', 'GET', '/api/v1/agents/me');
    await rig.publishPost('Traced post');
    await rig.call('home', 'GET', '/api/states', undefined, 'hamlet_home_not-a-key');

    const all = await entries();
    const find = (service: string, route: string, status: number) =>
      all.find((e) => e.service === service && e.kind === 'http' && e.route === route && e.status === status);
    expect(find('mail', '/v0/inboxes/:inbox_id/messages', 200)).toMatchObject({
      method: 'GET',
      keyId: rig.keyIds.mail,
      path: `/v0/inboxes/${rig.inbox}/messages?limit=5`,
      ok: true,
    });
    expect(find('home', '/api/states', 200)).toMatchObject({ method: 'GET', keyId: rig.keyIds.home });
    expect(find('workflow', '/api/v1/workflows', 200)).toMatchObject({ method: 'GET', keyId: rig.keyIds.workflow });
    expect(find('community', '/api/v1/agents/me', 200)).toMatchObject({ method: 'GET', keyId: rig.keyIds.community });
    expect(find('blog', '/api/publish', 201)).toMatchObject({ method: 'POST', keyId: rig.keyIds.blog });
    // A refused key names no key.
    expect(find('home', '/api/states', 401)).toMatchObject({ keyId: null, ok: false });
    for (const e of all) expect(typeof e.durationMs === 'number' || e.kind === 'event').toBe(true);

    const text = JSON.stringify(all);
    for (const key of Object.values(rig.keys)) expect(text).not.toContain(key);
    // The blog's verification link carried its token in the URL: masked in the trace.
    const verify = all.find((e) => e.route === '/api/verify')!;
    expect(verify.path).toBe('/api/verify?token=[redacted]');

    // Filters: one key, one service.
    const mine = await entries({ keyId: rig.keyIds.workflow });
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.keyId === rig.keyIds.workflow)).toBe(true);
    expect((await entries({ service: ['home'] })).every((e) => e.service === 'home')).toBe(true);
  });

  it('keeps the query values of a keyed call and drops those of the same URL called without a key in the same batch', async () => {
    // The writer masks each URL once per batch: the keyed and the unkeyed call of one URL must not share the result.
    const url = '/api/states?note=visible-to-keyed-calls-only';
    await rig.call('home', 'GET', url);
    await rig.call('home', 'GET', url, undefined, '');
    await rig.call('home', 'GET', url);
    const calls = (await entries({ service: ['home'] })).filter((e) => e.path?.startsWith('/api/states?note'));
    const keyed = calls.filter((e) => e.keyId === rig.keyIds.home);
    const unkeyed = calls.filter((e) => e.keyId === null);
    expect(keyed).toHaveLength(2);
    expect(unkeyed).toHaveLength(1);
    for (const e of keyed) expect(e.path).toBe(url);
    expect(unkeyed[0].path).not.toContain('visible-to-keyed-calls-only');
  });

  it('records domain events: mail received, post published, community post, light turned on, execution finished', async () => {
    await rig.sendMail('Lunch?');
    await rig.publishPost('An event post');
    await rig.postInCommunity('Hello community');
    await rig.turnOnLight('light.hall');
    const executionId = await rig.runWorkflow('Traced workflow');

    const events = await waitFor(async () => {
      const list = await entries({ kind: ['event'] });
      return list.some((e) => e.service === 'mail' && e.summary?.includes('Lunch?')) ? list : undefined;
    });
    const summary = (service: string, text: string) =>
      events.find((e) => e.service === service && e.summary?.includes(text));
    expect(summary('mail', 'Lunch?')).toMatchObject({ kind: 'event', detail: { inbox_id: rig.inbox } });
    expect(summary('blog', 'published "An event post"')).toMatchObject({ keyId: rig.keyIds.blog });
    expect(summary('community', 'Hello community')).toMatchObject({ keyId: rig.keyIds.community });
    expect(summary('home', 'Hall turned on')).toMatchObject({
      keyId: rig.keyIds.home,
      detail: { entity_id: 'light.hall', state: 'on', old_state: 'off' },
    });
    expect(summary('workflow', 'Traced workflow')).toMatchObject({
      ok: true,
      detail: { execution_id: executionId, status: 'success' },
    });
  });

  it('records each message over SMTP with its envelope and reply', async () => {
    const port = Number(new URL(rig.t.url('mail', 'smtp')).port);
    const ok = await smtpSend(
      port,
      'stranger@elsewhere.test',
      [rig.inbox],
      `From: stranger@elsewhere.test\r\nTo: ${rig.inbox}\r\nSubject: Over SMTP\r\n\r\nHi`,
    );
    expect(ok).toMatch(/^250/);
    // A header block over 256 KiB is refused after DATA (550).
    const padding = Array.from({ length: 300 }, (_, i) => `X-Pad-${i}: ${'a'.repeat(1000)}`).join('\r\n');
    const refused = await smtpSend(
      port,
      'stranger@elsewhere.test',
      [rig.inbox],
      `${padding}\r\nSubject: too much\r\n\r\nHi`,
    );
    expect(refused).toMatch(/^550/);
    const smtp = await entries({ kind: ['smtp'] });
    const accepted = smtp.find((e) => e.status === 250)!;
    expect(accepted).toMatchObject({
      service: 'mail',
      method: 'DATA',
      route: 'smtp',
      ok: true,
      keyId: null,
      detail: { from: 'stranger@elsewhere.test', to: [rig.inbox] },
    });
    expect(smtp.find((e) => e.status === 550)).toMatchObject({
      ok: false,
      detail: {
        from: 'stranger@elsewhere.test',
        to: [rig.inbox],
        response: expect.stringMatching(/header block larger/),
      },
    });
  });

  it('records a message sent through the submission port with the key the session authenticated with', async () => {
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: Number(new URL(rig.t.url('mail', 'submission')).port),
      secure: false,
      requireTLS: true,
      auth: { user: rig.inbox, pass: rig.keys.mail },
      tls: { rejectUnauthorized: false },
    });
    await transport.sendMail({ from: rig.inbox, to: 'someone@outside.test', subject: 'Submitted', text: 'via SMTP' });
    transport.close();
    const submitted = (await entries({ kind: ['smtp'] })).find((e) => e.route === 'submission')!;
    expect(submitted).toMatchObject({
      status: 250,
      ok: true,
      keyId: rig.keyIds.mail,
      detail: { from: rig.inbox, to: ['someone@outside.test'] },
    });
    expect(JSON.stringify(submitted)).not.toContain(rig.keys.mail);
  });

  it('records home WebSocket commands with their id, type and success', async () => {
    const s = await rawSocket(rig.t.url('home'));
    await s.next((m) => m.type === 'auth_required');
    s.send({ type: 'auth', access_token: rig.keys.home });
    await s.next((m) => m.type === 'auth_ok');
    s.send({ id: 1, type: 'get_states' });
    await s.next((m) => m.id === 1);
    s.send({
      id: 2,
      type: 'call_service',
      domain: 'light',
      service: 'turn_on',
      service_data: { entity_id: 'light.kitchen' },
    });
    await s.next((m) => m.id === 2 && m.type === 'result');
    s.send({ id: 3, type: 'no_such_command' });
    await s.next((m) => m.id === 3);
    s.ws.close();

    const ws = await waitFor(async () => {
      const list = await entries({ kind: ['ws'], keyId: rig.keyIds.home, order: 'oldest' });
      return list.length >= 3 ? list : undefined;
    });
    expect(ws.map((e) => [e.method, e.detail?.id, e.ok])).toEqual([
      ['get_states', 1, true],
      ['call_service', 2, true],
      ['no_such_command', 3, false],
    ]);
    expect(ws[0]).toMatchObject({ service: 'home', route: '/api/websocket' });
    const light = await waitFor(async () =>
      (await entries({ kind: ['event'], service: ['home'] })).find((e) => e.summary === 'Kitchen turned on'),
    );
    expect(light.keyId).toBe(rig.keyIds.home);
  });

  it('keeps no bodies unless asked', async () => {
    expect((await entries()).every((e) => e.requestBody === null && e.responseBody === null)).toBe(true);
  });

  it('pages with a cursor, newest first by default', async () => {
    const first = await rig.t.hamlet.platform.trace.query({ limit: 3 });
    expect(first.entries).toHaveLength(3);
    const second = await rig.t.hamlet.platform.trace.query({ limit: 3, cursor: first.nextCursor! });
    const order = (list: TraceEntry[]) => list.map((e) => `${e.at}|${e.id}`);
    const both = order([...first.entries, ...second.entries]);
    expect(both).toEqual([...both].sort().reverse());
    expect(new Set(both).size).toBe(6);
  });
});

describe('trace bodies', () => {
  it('are kept with HAMLET_TRACE_BODIES=on, secrets redacted, size capped', async () => {
    const t = await startTestHamlet({
      services: ['community'],
      env: { HAMLET_TRACE_BODIES: 'on', HAMLET_RATE_LIMITS: 'off' },
    });
    try {
      const register = (body: unknown) =>
        fetch(`${t.url('community')}/api/v1/agents/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const key = (
        (await (await register({ name: 'body_agent', description: 'short' })).json()) as { agent: { api_key: string } }
      ).agent.api_key;
      expect(key).toMatch(/^hamlet_community_/);
      await register({ name: 'long_agent', description: 'x'.repeat(6000), password: 'hunter2' });
      const { entries } = await t.hamlet.platform.trace.query({ service: ['community'], order: 'oldest' });
      const [short, long] = entries.filter((e) => e.route === '/api/v1/agents/register');
      expect(short.requestBody).toBe('{"name":"body_agent","description":"short"}');
      expect(short.responseBody).toContain('"api_key":"[redacted]"');
      expect(short.responseBody).not.toContain(key);
      expect(long.requestBody).toContain('"name":"long_agent"');
      expect(long.requestBody).not.toContain('hunter2');
      expect(long.requestBody).toMatch(/more characters\]$/);
      expect(long.requestBody!.length).toBeLessThan(4200);
    } finally {
      await t.destroy();
    }
  });

  it('masks Hamlet keys wherever they appear, and secret-named fields at any depth', () => {
    expect(
      bodyText({
        a: { token: 'abc', list: [{ password: 'p' }] },
        note: 'use hamlet_mail_0123456789abcdefABCDEF please',
      }),
    ).toBe('{"a":{"token":"[redacted]","list":[{"password":"[redacted]"}]},"note":"use [redacted] please"}');
    expect(bodyText('{"api_key":"k"}')).toBe('{"api_key":"[redacted]"}');
    expect(bodyText(undefined)).toBeNull();
  });

  it('masks every credential a body can hold: tokens by their shape, in URLs, in form bodies, echoed elsewhere, in secret paths and fields', () => {
    const claim = 'hamlet_claim_Ab-_cdEFghIJklMNopQRstUV-wx_yz01';
    expect(bodyText({ claim_url: `http://c.localhost/claim/${claim}`, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0' })).toBe(
      '{"claim_url":"http://c.localhost/claim/[redacted]","secret":"[redacted]"}',
    );
    expect(
      bodyText({ text: 'Open http://b/api/verify?token=0f0e-11&lang=en or <a href="http://b/x?a=1&amp;api_key=zz">' }),
    ).toBe(
      '{"text":"Open http://b/api/verify?token=[redacted]&lang=en or <a href=\\"http://b/x?a=1&amp;api_key=[redacted]\\">"}',
    );
    expect(bodyText('verification_code=reef-12AB&owner=me')).toBe('verification_code=[redacted]&owner=me');
    // A value masked by its field's name is masked wherever else it appears.
    expect(bodyTexts([{ verification_code: 'reef-12AB' }, { tweet: 'Verification: reef-12AB' }])).toEqual([
      '{"verification_code":"[redacted]"}',
      '{"tweet":"Verification: [redacted]"}',
    ]);
    // Routes whose path carries a secret mask the same segment in the URLs bodies hold.
    const secretPaths = secretPathPattern([
      secretPathPrefix('/v0/downloads/:token')!,
      secretPathPrefix('/api/webhook/:webhook_id')!,
    ]);
    expect(secretPathPrefix('/v0/inboxes/:inbox_id')).toBeUndefined();
    expect(secretPathPrefix('/:token')).toBeUndefined();
    expect(
      bodyText(
        { download_url: 'http://m/v0/downloads/eyJh.c2ln', hook: 'http://h/api/webhook/abc?x=1' },
        { secretPaths },
      ),
    ).toBe('{"download_url":"http://m/v0/downloads/[redacted]","hook":"http://h/api/webhook/[redacted]?x=1"}');
    // Fields a route names as secret, whatever they are called.
    expect(bodyText({ name: 'Partner', data: { name: 'X-Key', value: 'v' } }, { secretFields: ['data'] })).toBe(
      '{"name":"Partner","data":"[redacted]"}',
    );
  });
});

describe('trace storage, retention and switch', () => {
  let db: Db;
  const silent = createLogger({ level: 'silent', pretty: false });
  withPlatformDb((opened) => (db = opened));

  it('keeps every entry of a batch whatever its text holds: a NUL, quotes, backslashes, emoji, long text', async () => {
    const trace = new Trace(db, new ManualClock('2026-04-01T00:00:00.000Z'), new LocalEventBus(), silent, {
      enabled: true,
      bodies: true,
      retentionMs: 24 * 3600_000,
      maxEntries: 100_000,
    });
    const odd = [
      'nul \u0000 inside',
      'literal \\u0000 and \\\u0000',
      `quotes " ' \\ and ]}) `,
      'emoji 🏠 and ünïcödé',
      'x'.repeat(10_000),
    ];
    for (const summary of odd)
      trace.record({
        service: 'blog',
        kind: 'http',
        method: 'GET',
        route: '/p',
        path: `/p?q=${summary.slice(0, 20)}`,
        status: 200,
        summary,
        requestBody: { summary },
      });
    await trace.flush();
    const { entries } = await trace.query({ order: 'oldest' });
    // PostgreSQL text cannot hold a NUL: it becomes U+FFFD there, and only there.
    // A summary is cut at 2 KB (issue 27: no caller may make an entry large).
    const kept = odd.map((t) => (t.length > 2048 ? `${t.slice(0, 2048)}…[${t.length - 2048} more characters]` : t));
    const stored = db.dialect === 'postgres' ? kept.map((t) => t.replaceAll('\u0000', '\ufffd')) : kept;
    expect(entries.map((e) => e.summary)).toEqual(stored);
    expect(entries.every((e) => e.status === 200 && e.ok && e.service === 'blog')).toBe(true);
    await trace.close();
    await db.kysely.deleteFrom('platform_trace').execute();
  });

  it('moves existing entries over when it drops the indexes nobody reads by, and into batches (migrations 003 and 006)', async () => {
    const older = await testStorage();
    const old = openDb(older);
    try {
      const {
        ['003_trace_fewer_indexes']: _,
        ['004_trace_epochs']: _later,
        ['005_clock']: _clock,
        ['006_trace_batches']: _batches,
        ...upTo002
      } = platformMigrations;
      await migrate(old, 'platform', upTo002);
      const row = {
        id: '0000000001abcdef',
        at: '2026-04-01T00:00:00.000Z',
        service: 'mail',
        kind: 'event',
        key_id: 'k1',
        method: null,
        route: null,
        path: null,
        status: null,
        ok: 1,
        duration_ms: null,
        summary: 'kept',
        detail: '{"a":1}',
        request_body: null,
        response_body: null,
      };
      await old.kysely.insertInto('platform_trace').values(row).execute();
      await migrate(old, 'platform', platformMigrations);
      // One stored batch now holds the entry (trace-batch.ts).
      const batches = await old.kysely.selectFrom('platform_trace').select(['id', 'entries', 'keys']).execute();
      expect(batches.map((b) => ({ ...b, entries: Number(b.entries) }))).toEqual([
        { id: row.id, entries: 1, keys: ' k1 ' },
      ]);
      const trace = new Trace(old, new ManualClock('2026-04-01T00:00:01.000Z'), new LocalEventBus(), silent, {
        enabled: true,
        bodies: false,
        retentionMs: 24 * 3600_000,
        maxEntries: 100_000,
      });
      // Entries from before epochs existed belong to epoch 0.
      expect((await trace.query({})).entries).toEqual([
        {
          id: row.id,
          epoch: 0,
          seq: 0,
          at: row.at,
          service: 'mail',
          kind: 'event',
          keyId: 'k1',
          method: null,
          route: null,
          path: null,
          status: null,
          ok: true,
          durationMs: null,
          summary: 'kept',
          detail: { a: 1 },
          requestBody: null,
          responseBody: null,
        },
      ]);
      trace.event({ service: 'mail', summary: 'new', keyId: 'k1' });
      expect((await trace.query({ keyId: 'k1', order: 'oldest' })).entries.map((e) => e.summary)).toEqual([
        'kept',
        'new',
      ]);
      await trace.close();
    } finally {
      await old.close();
      await older.drop();
    }
  });

  it('numbers entries and files them by epoch, continuing both after a restart (a frozen clock gives them one time)', async () => {
    const storage = await testStorage();
    const db = openDb(storage);
    try {
      await migrate(db, 'platform', platformMigrations);
      const clock = new ManualClock('2026-04-01T00:00:00.000Z');
      const settings = { enabled: true, bodies: false, retentionMs: 24 * 3600_000, maxEntries: 100_000 };
      const first = new Trace(db, clock, new LocalEventBus(), silent, settings);
      await first.resume();
      first.event({ service: 'mail', summary: 'a' });
      first.event({ service: 'mail', summary: 'b' });
      expect(first.startEpoch()).toBe(1);
      first.event({ service: 'mail', summary: 'c' });
      await first.close();
      const second = new Trace(db, clock, new LocalEventBus(), silent, settings);
      await second.resume();
      expect(second.epoch).toBe(1);
      second.event({ service: 'mail', summary: 'd' });
      // Listed by time, then by id (real time and the process's tag): across a restart within one
      // frozen instant that order is not the sequence, so the sequence is what orders them here.
      const all = (await second.query({ order: 'oldest' })).entries.sort((x, y) => x.seq - y.seq);
      expect(all.map((e) => [e.summary, e.epoch, e.seq, e.at])).toEqual([
        ['a', 0, 1, '2026-04-01T00:00:00.000Z'],
        ['b', 0, 2, '2026-04-01T00:00:00.000Z'],
        ['c', 1, 3, '2026-04-01T00:00:00.000Z'],
        ['d', 1, 4, '2026-04-01T00:00:00.000Z'],
      ]);
      expect(
        (await second.query({ epoch: 1, order: 'oldest' })).entries.sort((x, y) => x.seq - y.seq).map((e) => e.summary),
      ).toEqual(['c', 'd']);
      expect((await second.query({ epoch: 0, order: 'oldest' })).entries.map((e) => e.summary)).toEqual(['a', 'b']);
      await second.close();
    } finally {
      await db.close();
      await storage.drop();
    }
  });

  it('drops entries older than HAMLET_TRACE_RETENTION as the platform clock moves', async () => {
    const clock = new ManualClock('2026-03-01T00:00:00.000Z');
    const trace = new Trace(db, clock, new LocalEventBus(), silent, {
      enabled: true,
      bodies: false,
      retentionMs: 24 * 3600_000,
      maxEntries: 100_000,
    });
    trace.event({ service: 'mail', summary: 'old news' });
    await trace.flush();
    clock.advance(12 * 3600_000);
    trace.event({ service: 'mail', summary: 'half a day later' });
    clock.advance(13 * 3600_000); // the first is now 25 h old, the second 13 h
    trace.event({ service: 'mail', summary: 'now' });
    await trace.flush();
    const { entries } = await trace.query({ order: 'oldest' });
    expect(entries.map((e) => e.summary)).toEqual(['half a day later', 'now']);
    expect(entries[1].at).toBe('2026-03-02T01:00:00.000Z');
    await trace.close();
  });

  it('records nothing with HAMLET_TRACE=off', async () => {
    const t = await startTestHamlet({ services: ['home'], env: { HAMLET_TRACE: 'off' } });
    try {
      const { key } = await t.hamlet.platform.keys.create('home');
      await fetch(`${t.url('home')}/api/states`, { headers: { authorization: `Bearer ${key}` } });
      t.hamlet.platform.trace.event({ service: 'home', summary: 'ignored' });
      expect((await t.hamlet.platform.trace.query({})).entries).toEqual([]);
    } finally {
      await t.destroy();
    }
  });
});
