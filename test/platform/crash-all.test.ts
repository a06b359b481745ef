// All five services in one process under mixed write load, killed with SIGKILL several times:
// mail sends with webhooks, home state writes, workflow webhook executions (responseMode
// lastNode), community posts/comments/votes and blog publishes run at the same time. After
// each kill, read straight from the storage: every write that got a 2xx is there, and every
// counter equals the rows it counts. After each restart, the jobs left behind get run.
//
// The writes of one service must not land inside another service's open transaction on the
// shared SQLite connection (issue 10, observation 1): that is what this test catches.
import { afterAll, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDb, type Db } from '../../src/platform/db.js';
import { Keys } from '../../src/platform/keys.js';
import { systemClock } from '../../src/platform/clock.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { startSmtpSink } from '../helpers/smtp-sink.js';
import { waitFor } from '../helpers/wait.js';
import { webhookReceiver } from '../mail/helpers.js';

const ROUNDS = 3;
/** Writes of each kind a round acknowledges before the kill (so every kind is in flight then). */
const PER_ROUND = 8;
/** Longest load per round, should a kind be slow to reach PER_ROUND. */
const MAX_LOAD_MS = 10_000;

const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

type Call = (
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; body: any }>;
const call: Call = async (base, method, path, body, headers = {}) => {
  const res = await fetch(base + path, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed };
};
/** Answers other than 2xx during the load: none is expected (every request is valid). */
const refusals: string[] = [];
const ok = (status: number, body?: unknown) => {
  if (status >= 200 && status < 300) return true;
  refusals.push(`${status} ${JSON.stringify(body).slice(0, 300)}`);
  return false;
};

/** What the clients were told was written. */
interface Acked {
  mail: string[]; // Message-IDs of sends a → b
  states: Array<{ entity: string; n: number }>;
  executions: string[]; // markers sent to the workflow webhook
  posts: string[];
  comments: string[];
  votes: Array<{ agent: string; post: string }>;
  blog: string[]; // slugs
}

it('loses no acknowledged write and keeps every counter equal to its rows across kill -9, all services at once', async () => {
  const storage = await testStorage();
  cleanups.push(() => storage.drop());
  const sink = await startSmtpSink();
  cleanups.push(() => sink.close());
  const hooks = await webhookReceiver();
  cleanups.push(() => hooks.close());
  const env = testEnv(storage, ['blog', 'mail', 'community', 'home', 'workflow'], {
    HAMLET_LOG_LEVEL: 'warn',
    HAMLET_RATE_LIMITS: 'off',
    HAMLET_SMTP_RELAY: sink.url,
    HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
    MAIL_DOMAIN: 'mail.test',
    MAIL_WEBHOOK_RETRY_SCHEDULE: Array(10).fill('200ms').join(','),
  });

  let proc: HamletProcess = await spawnHamlet(env, 60_000);
  cleanups.push(() => proc.kill());
  const db: Db = openDb({ dataDir: storage.dataDir, databaseUrl: storage.databaseUrl });
  cleanups.push(() => db.close());
  const keys = new Keys(db, systemClock);
  const mailKey = (await keys.create('mail')).key;
  const homeKey = (await keys.create('home')).key;
  const workflowKey = (await keys.create('workflow')).key;
  let urls = proc.urls;

  // ---- set-up: an account in each service
  const mailAuth = { authorization: `Bearer ${mailKey}` };
  const inboxA = (await call(urls['mail api'], 'POST', '/v0/inboxes', { username: 'load-a' }, mailAuth)).body
    .inbox_id as string;
  const inboxB = (await call(urls['mail api'], 'POST', '/v0/inboxes', { username: 'load-b' }, mailAuth)).body
    .inbox_id as string;
  expect((await call(urls['mail api'], 'POST', '/v0/webhooks', { url: hooks.url }, mailAuth)).status).toBe(200);

  const homeAuth = { authorization: `Bearer ${homeKey}` };
  const wfAuth = { 'x-workflow-api-key': workflowKey };
  const wf = await call(
    urls['workflow api'],
    'POST',
    '/api/v1/workflows',
    {
      name: 'crash hook',
      nodes: [
        {
          name: 'Hook',
          type: 'n8n-nodes-base.webhook',
          typeVersion: 2,
          position: [0, 0],
          parameters: { path: 'crash', httpMethod: 'POST', responseMode: 'lastNode' },
        },
      ],
      connections: {},
      settings: { executionOrder: 'v1' },
    },
    wfAuth,
  );
  expect(wf.status).toBe(200);
  expect(
    (await call(urls['workflow api'], 'POST', `/api/v1/workflows/${wf.body.id}/activate`, undefined, wfAuth)).status,
  ).toBe(200);

  const register = async (name: string) =>
    (await call(urls['community api'], 'POST', '/api/v1/agents/register', { name })).body.agent as {
      id?: string;
      name: string;
      api_key: string;
    };
  const author = await register('load_author');
  const voters = await Promise.all(Array.from({ length: 6 }, (_, i) => register(`load_voter_${i}`)));
  const community = (
    await call(
      urls['community api'],
      'POST',
      '/api/v1/communities',
      { name: 'loadtest' },
      { authorization: `Bearer ${author.api_key}` },
    )
  ).body.community;
  expect(community?.id).toBeDefined();

  await call(urls['blog api'], 'POST', '/api/register', {
    email: 'load@example.org',
    name: 'Load',
    slug: 'load-test',
  });
  const verification = await sink.waitFor((m) => m.parsed.subject === 'Verify your AI Agent Blog', 20_000);
  const token = /token=([0-9a-f-]{36})/.exec(verification.parsed.text ?? '')![1];
  const verified = await call(urls['blog api'], 'GET', `/api/verify?token=${token}`, undefined, {
    accept: 'application/json',
  });
  const blogAuth = { authorization: `Bearer ${verified.body.apiKey}` };

  const acked: Acked = { mail: [], states: [], executions: [], posts: [], comments: [], votes: [], blog: [] };
  let seq = 0;

  for (let round = 0; round < ROUNDS; round++) {
    let stop = false;
    const loop = (work: () => Promise<void>) => async () => {
      while (!stop) {
        try {
          await work();
        } catch {
          /* cut by the kill: not acknowledged */
        }
      }
    };
    // Posts this round's voters and commenters use, created before the load.
    const roundPosts: string[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await call(
        urls['community api'],
        'POST',
        '/api/v1/posts',
        { title: `r${round} p${i}`, content: 'x', community_id: community.id },
        { authorization: `Bearer ${author.api_key}` },
      );
      expect(r.status).toBe(201);
      roundPosts.push(r.body.post.id);
      acked.posts.push(r.body.post.id);
    }
    const pairs = voters.flatMap((v) => roundPosts.map((p) => ({ v, p })));
    const pairsTotal = pairs.length;
    const u = urls;
    const workers = [
      // mail: a sends to b (local delivery, webhooks for sent, delivered, received)
      ...Array.from({ length: 3 }, () =>
        loop(async () => {
          const r = await call(
            u['mail api'],
            'POST',
            `/v0/inboxes/${inboxA}/messages`,
            { to: inboxB, subject: `load ${seq++}`, text: 'hello '.repeat(50), html: `<p>${'hello '.repeat(50)}</p>` },
            mailAuth,
          );
          if (ok(r.status, r.body)) acked.mail.push(r.body.message_id);
        }),
      ),
      // home: state writes (state machine and recorder)
      ...Array.from({ length: 3 }, () =>
        loop(async () => {
          const n = seq++;
          const entity = `sensor.load_${n % 40}`;
          const r = await call(
            u['home api'],
            'POST',
            `/api/states/${entity}`,
            { state: String(n), attributes: { round } },
            homeAuth,
          );
          if (ok(r.status, r.body)) acked.states.push({ entity, n });
        }),
      ),
      // workflow: webhook executions answered with the last node's output
      ...Array.from({ length: 3 }, () =>
        loop(async () => {
          const marker = `m${seq++}x`;
          const r = await call(u['workflow api'], 'POST', '/webhook/crash', { marker });
          if (ok(r.status, r.body)) acked.executions.push(marker);
        }),
      ),
      // community: each voter votes once on each of this round's posts, and comments
      loop(async () => {
        const pair = pairs.shift();
        // Every vote of the round is cast: nothing left to do until the kill.
        if (!pair) return void (await waitFor(() => stop, { timeoutMs: 2 * MAX_LOAD_MS, message: 'the kill' }));
        const r = await call(u['community api'], 'POST', `/api/v1/posts/${pair.p}/upvote`, undefined, {
          authorization: `Bearer ${pair.v.api_key}`,
        });
        if (ok(r.status, r.body)) acked.votes.push({ agent: pair.v.name, post: pair.p });
      }),
      loop(async () => {
        const post = roundPosts[seq % roundPosts.length];
        const r = await call(
          u['community api'],
          'POST',
          `/api/v1/posts/${post}/comments`,
          { content: `c${seq++}` },
          { authorization: `Bearer ${voters[seq % voters.length].api_key}` },
        );
        if (ok(r.status, r.body)) acked.comments.push(r.body.comment.id);
      }),
      // blog: publishes
      ...Array.from({ length: 2 }, () =>
        loop(async () => {
          const slug = `r${round}-post-${seq++}`;
          const r = await call(
            u['blog api'],
            'POST',
            '/api/publish',
            { title: slug, content: `# ${slug}\n\nbody`, slug, status: 'published' },
            blogAuth,
          );
          if (ok(r.status, r.body)) acked.blog.push(slug);
        }),
      ),
    ];
    const start = Object.fromEntries(Object.entries(acked).map(([k, v]) => [k, v.length]));
    const load = Promise.all(workers.map((w) => w()));
    // Kill in the middle of the load, once every kind of write got going: requests of every
    // kind are in flight then.
    // (At the latest after MAX_LOAD_MS: then the kill finds what it finds.)
    const deadline = Date.now() + MAX_LOAD_MS;
    const going = () =>
      Object.entries(acked).every(
        ([k, v]) =>
          k === 'posts' || v.length - start[k]! >= Math.min(PER_ROUND, k === 'votes' ? pairsTotal / 2 : PER_ROUND),
      );
    await waitFor(() => going() || Date.now() >= deadline, {
      timeoutMs: MAX_LOAD_MS + 1000,
      message: 'every kind of write to get going',
    });
    // The subject, not a wait: a kill at a random moment of the load.
    await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
    await proc.kill('SIGKILL');
    stop = true;
    await load;
    expect(proc.child.signalCode).toBe('SIGKILL');

    const lost = await lostWrites(
      db,
      acked,
      inboxA,
      inboxB,
      hooks.received.map((r) => r.body),
    );
    const counts = Object.fromEntries(Object.entries(acked).map(([k, v]) => [k, v.length]));
    console.info(`round ${round}: acknowledged so far ${JSON.stringify(counts)}`);
    expect({ round, counts, lost }).toEqual({ round, counts, lost: {} });
    // A transaction revoked for waiting on something else answers 500: there must be none.
    expect(refusals).toEqual([]);
    expect(await counterMismatches(db)).toEqual([]);

    const restartedAt = new Date().toISOString();
    const t0 = Date.now();
    proc = await spawnHamlet(env, 60_000);
    urls = proc.urls;
    const t1 = Date.now();
    await expectJobsRun(db, restartedAt);
    console.info(`round ${round}: restart ${t1 - t0} ms, jobs taken up ${Date.now() - t1} ms`);
  }
  await proc.kill('SIGTERM');
}, 240_000);

/** The acknowledged writes missing from the storage, by kind (empty kinds left out). */
async function lostWrites(
  db: Db,
  acked: Acked,
  inboxA: string,
  inboxB: string,
  delivered: string[],
): Promise<Record<string, unknown[]>> {
  const k = db.kysely;
  const lost: Record<string, unknown[]> = {};
  const note = (kind: string, missing: unknown[]) => {
    if (missing.length) lost[kind] = missing;
  };

  const messages = await k.selectFrom('mail_messages').select(['inbox_id', 'message_id']).execute();
  const inInbox = (inbox: string) => new Set(messages.filter((m) => m.inbox_id === inbox).map((m) => m.message_id));
  const sent = inInbox(inboxA);
  const received = inInbox(inboxB);
  note(
    'mail sent copy',
    acked.mail.filter((id) => !sent.has(id)),
  );
  note(
    'mail received copy',
    acked.mail.filter((id) => !received.has(id)),
  );
  // Each send's message.sent event was recorded with it: delivered already, or still queued.
  const queued = (
    await k.selectFrom('platform_jobs').select('payload').where('queue', '=', 'mail.webhook').execute()
  ).map((r) => r.payload as string);
  const sentEvent = (id: string) => (body: string) => body.includes('message.sent') && body.includes(id);
  note(
    'mail message.sent event',
    acked.mail.filter((id) => !delivered.some(sentEvent(id)) && !queued.some(sentEvent(id))),
  );

  const recorded = new Set(
    (await k.selectFrom('home_states').select(['entity_id', 'state']).execute()).map(
      (r) => `${r.entity_id}=${r.state}`,
    ),
  );
  note(
    'home recorder',
    acked.states.filter((s) => !recorded.has(`${s.entity}=${s.n}`)),
  );
  const current = new Map<string, number>();
  for (const r of await k.selectFrom('home_entities').select(['entity_id', 'data']).execute())
    current.set(r.entity_id, Number(JSON.parse(r.data).state));
  const lastAcked = new Map<string, number>();
  for (const s of acked.states) lastAcked.set(s.entity, Math.max(lastAcked.get(s.entity) ?? -1, s.n));
  note(
    'home state',
    [...lastAcked]
      .filter(([id, n]) => !((current.get(id) ?? -1) >= n))
      .map(([id, n]) => `${id}=${n} (stored ${current.get(id)})`),
  );

  const markers = new Set<string>();
  for (const r of await k.selectFrom('workflow_executions').select('data').execute())
    for (const m of String(r.data ?? '').matchAll(/"marker":"(m\d+x)"/g)) markers.add(m[1]);
  note(
    'workflow executions',
    acked.executions.filter((m) => !markers.has(m)),
  );

  const posts = new Set((await k.selectFrom('community_posts').select('id').execute()).map((r) => r.id));
  note(
    'community posts',
    acked.posts.filter((id) => !posts.has(id)),
  );
  const comments = new Set((await k.selectFrom('community_comments').select('id').execute()).map((r) => r.id));
  note(
    'community comments',
    acked.comments.filter((id) => !comments.has(id)),
  );
  const votes = new Set(
    (
      await k
        .selectFrom('community_votes')
        .innerJoin('community_agents', 'community_agents.id', 'community_votes.agent_id')
        .select(['community_agents.name', 'community_votes.target_id'])
        .execute()
    ).map((r) => `${r.name}/${r.target_id}`),
  );
  note(
    'community votes',
    acked.votes.filter((v) => !votes.has(`${v.agent}/${v.post}`)),
  );

  const slugs = new Set((await k.selectFrom('blog_posts').select('slug').execute()).map((r) => r.slug));
  note(
    'blog posts',
    acked.blog.filter((s) => !slugs.has(s)),
  );
  return lost;
}

/** Counters kept in rows that differ from the rows they count. */
async function counterMismatches(db: Db): Promise<string[]> {
  const k = db.kysely;
  const rows = async (query: ReturnType<typeof sql>) => (await query.execute(k)).rows as Array<Record<string, unknown>>;
  const bad: string[] = [];
  for (const r of await rows(sql`
    select p.id, p.upvotes, p.downvotes, p.comment_count,
      (select count(*) from community_votes v where v.target_type = 'post' and v.target_id = p.id and v.value = 1) as ups,
      (select count(*) from community_votes v where v.target_type = 'post' and v.target_id = p.id and v.value = -1) as downs,
      (select count(*) from community_comments c where c.post_id = p.id) as comments
    from community_posts p`)) {
    if (
      Number(r.upvotes) !== Number(r.ups) ||
      Number(r.downvotes) !== Number(r.downs) ||
      Number(r.comment_count) !== Number(r.comments)
    )
      bad.push(`community post ${JSON.stringify(r)}`);
  }
  for (const r of await rows(sql`
    select c.name, c.post_count, (select count(*) from community_posts p where p.community_id = c.id) as posts
    from community_communities c`)) {
    if (Number(r.post_count) !== Number(r.posts)) bad.push(`community ${JSON.stringify(r)}`);
  }
  for (const r of await rows(sql`
    select a.slug, a.post_count, (select count(*) from blog_posts p where p.agent_id = a.id and p.status = 'published') as published
    from blog_agents a`)) {
    if (Number(r.post_count) !== Number(r.published)) bad.push(`blog agent ${JSON.stringify(r)}`);
  }
  for (const r of await rows(sql`
    select t.thread_id, t.message_count, (select count(*) from mail_messages m where m.thread_id = t.thread_id) as messages
    from mail_threads t`)) {
    if (Number(r.message_count) !== Number(r.messages)) bad.push(`mail thread ${JSON.stringify(r)}`);
  }
  return bad;
}

/** Every job that was due when the process came back gets taken up (none stays stuck). */
async function expectJobsRun(db: Db, restartedAt: string): Promise<void> {
  const due = () =>
    db.kysely
      .selectFrom('platform_jobs')
      .select(['id', 'queue', 'status', 'run_at', 'locked_until', 'attempts'])
      .where('status', '=', 'pending')
      .where('run_at', '<=', restartedAt)
      .execute();
  await waitFor(
    async () => {
      expect(await due()).toEqual([]); // on timeout, the failure shows the jobs left
      return true;
    },
    { timeoutMs: 15_000, intervalMs: 100, message: 'every job due at the restart to be taken up' },
  );
  // On SQLite a killed process's running jobs are redone at start; on PostgreSQL they wait for
  // their lease, which must lie in the future (a lease in the past would be taken at once).
  const stale = await db.kysely
    .selectFrom('platform_jobs')
    .select(['id', 'queue', 'locked_until'])
    .where('status', '=', 'running')
    .where('locked_until', '<', new Date(Date.now() - 5_000).toISOString())
    .execute();
  expect(stale).toEqual([]);
}
