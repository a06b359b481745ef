// Every service on PostgreSQL (issue 20): one `hamlet start` on a fresh schema, each service's
// main write and main read under load, next to the bare Fastify handler of the same run.
// Target: reads at least 15% of bare Fastify. Needs a PostgreSQL server (BENCH_DATABASE_URL,
// else TEST_DATABASE_URL, DATABASE_URL or the local default); without one it says so and ends.
import type autocannon from 'autocannon';
import { startSmtpSink } from '../test/helpers/smtp-sink.js';
import { benchKey, benchSchema, call, postgresAnswers } from './cluster-support.js';
import { load, startHamletForBench, type BenchContext } from './lib.js';

const READ_TARGET = { ratio: 0.15 };
const SEED_POSTS = 200;

/** Requests whose body changes every time (a new title, a new state), so each write is a real one. */
function varying(
  method: 'POST',
  path: string,
  headers: Record<string, string>,
  body: (n: number) => unknown,
): autocannon.Request[] {
  let n = 0;
  return [
    {
      method,
      path,
      setupRequest: (req) => ({
        ...req,
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body(n++)),
      }),
    },
  ];
}

const note = (r: { non2xx: number; errors: number }, extra?: string) =>
  [r.non2xx ? `${r.non2xx} non-2xx` : '', r.errors ? `${r.errors} errors` : '', extra ?? '']
    .filter(Boolean)
    .join('; ') || undefined;

export default async function postgresBench(ctx: BenchContext) {
  if (!(await postgresAnswers())) {
    console.error('  no PostgreSQL server answers (set BENCH_DATABASE_URL): skipped');
    return;
  }
  const schema = await benchSchema();
  const sink = await startSmtpSink();
  const proc = await startHamletForBench(['blog', 'mail', 'community', 'home', 'workflow'], {
    DATABASE_URL: schema.databaseUrl,
    HAMLET_SMTP_RELAY: sink.url,
  });
  try {
    const url = (service: string) => proc.urls[`${service} api`];

    // Blog: one verified agent; publishing is the write, the post list the read.
    const blog = url('blog');
    await call(blog, 'POST', '/api/register', { email: 'pg-bench@example.org', name: 'PG Bench', slug: 'pg-bench' });
    const verify = await sink.waitFor(
      (m) => m.envelope.to.includes('pg-bench@example.org') && m.parsed.subject === 'Verify your AI Agent Blog',
      30_000,
    );
    const token = /token=([0-9a-f-]{36})/.exec(verify.parsed.text ?? '')![1];
    const blogAuth = {
      authorization: `Bearer ${(await call(blog, 'GET', `/api/verify?token=${token}`, undefined, { accept: 'application/json' })).apiKey}`,
    };
    const content = `# A post\n\nSome **markdown** and ${'words '.repeat(100)}`;
    // The first publish starts the render threads: not part of the measurement.
    for (let i = 0; i < 20; i++)
      await call(
        blog,
        'POST',
        '/api/publish',
        { title: `Seed ${i}`, content, slug: `seed-${i}`, status: 'published' },
        blogAuth,
      );
    const publish = await load({
      url: blog,
      requests: varying('POST', '/api/publish', blogAuth, (n) => ({
        title: `Post ${n}`,
        content,
        slug: `post-${n}`,
        status: 'published',
      })),
    });
    ctx.row('blog POST /api/publish (PostgreSQL)', publish, undefined, note(publish));
    const posts = await load({ url: `${blog}/api/posts` });
    ctx.row('blog GET /api/posts (PostgreSQL)', posts, READ_TARGET, note(posts));

    // Mail: two inboxes; an API send is the write (delivered through our SMTP), the message list the read.
    const mail = url('mail');
    const mailAuth = { authorization: `Bearer ${await benchKey(schema.databaseUrl, 'mail')}` };
    const from = (await call(mail, 'POST', '/v0/inboxes', { username: 'pg-from' }, mailAuth)).inbox_id;
    const to = (await call(mail, 'POST', '/v0/inboxes', { username: 'pg-to' }, mailAuth)).inbox_id;
    for (let i = 0; i < 50; i++)
      await call(
        mail,
        'POST',
        `/v0/inboxes/${encodeURIComponent(from)}/messages/send`,
        { to: [to], subject: `seed ${i}`, text: 'seed' },
        mailAuth,
      );
    const send = await load({
      url: mail,
      requests: varying('POST', `/v0/inboxes/${encodeURIComponent(from)}/messages/send`, mailAuth, (n) => ({
        to: [to],
        subject: `bench ${n}`,
        text: `message ${n}`,
      })),
    });
    ctx.row('mail POST …/messages/send (PostgreSQL)', send, undefined, note(send));
    const list = await load({
      url: `${mail}/v0/inboxes/${encodeURIComponent(from)}/messages?limit=50`,
      headers: mailAuth,
    });
    ctx.row('mail GET message list, 50 (PostgreSQL)', list, READ_TARGET, note(list));

    // Community: a post is the write, the hot list the read.
    const community = url('community');
    const agent = await call(community, 'POST', '/api/v1/agents/register', {
      name: 'pg_bench',
      description: 'benchmarks',
    });
    const communityAuth = { authorization: `Bearer ${agent.agent.api_key}` };
    for (let i = 0; i < SEED_POSTS; i++)
      await call(
        community,
        'POST',
        '/api/v1/posts',
        { title: `Seed ${i}`, content: 'seed', submolt: 'general' },
        communityAuth,
      );
    const post = await load({
      url: community,
      requests: varying('POST', '/api/v1/posts', communityAuth, (n) => ({
        title: `Bench ${n}`,
        content: `post ${n}`,
        submolt: 'general',
      })),
    });
    ctx.row('community POST /api/v1/posts (PostgreSQL)', post, undefined, note(post));
    const hot = await load({ url: `${community}/api/v1/posts?sort=hot&limit=25`, headers: communityAuth });
    ctx.row('community GET /api/v1/posts?sort=hot (PostgreSQL)', hot, READ_TARGET, note(hot));

    // Home: setting a state is the write (recorded to PostgreSQL), one entity's state the read.
    const home = url('home');
    const homeAuth = { authorization: `Bearer ${await benchKey(schema.databaseUrl, 'home')}` };
    const set = await load({
      url: home,
      requests: varying('POST', '/api/states/sensor.pg_bench', homeAuth, (n) => ({
        state: String(n),
        attributes: { unit_of_measurement: 'W' },
      })),
    });
    ctx.row('home POST /api/states/<entity> (PostgreSQL)', set, undefined, note(set));
    const state = await load({ url: `${home}/api/states/light.living_room`, headers: homeAuth });
    ctx.row('home GET /api/states/<entity> (PostgreSQL)', state, READ_TARGET, note(state));

    // Workflow: a webhook run (Webhook → Set → Respond, its execution stored) is the write, the execution list the read.
    const workflow = url('workflow');
    const wfAuth = { 'x-n8n-api-key': await benchKey(schema.databaseUrl, 'workflow') };
    const wf = await call(
      workflow,
      'POST',
      '/api/v1/workflows',
      {
        name: 'pg bench echo',
        nodes: [
          {
            name: 'Webhook',
            type: 'n8n-nodes-base.webhook',
            typeVersion: 2,
            position: [0, 0],
            webhookId: 'pg-bench',
            parameters: { httpMethod: 'POST', path: 'pg-bench', responseMode: 'responseNode', options: {} },
          },
          {
            name: 'Set',
            type: 'n8n-nodes-base.set',
            typeVersion: 3.4,
            position: [200, 0],
            parameters: {
              assignments: { assignments: [{ id: '1', name: 'echo', type: 'string', value: '={{ $json.body.msg }}' }] },
              options: {},
            },
          },
          {
            name: 'Respond',
            type: 'n8n-nodes-base.respondToWebhook',
            typeVersion: 1.1,
            position: [400, 0],
            parameters: { respondWith: 'firstIncomingItem', options: {} },
          },
        ],
        connections: {
          Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] },
          Set: { main: [[{ node: 'Respond', type: 'main', index: 0 }]] },
        },
        settings: { executionOrder: 'v1' },
      },
      wfAuth,
    );
    await call(workflow, 'POST', `/api/v1/workflows/${wf.id}/activate`, undefined, wfAuth);
    const run = await load({
      url: `${workflow}/webhook/pg-bench`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ msg: 'hi' }),
    });
    ctx.row('workflow POST /webhook/<path> (run stored, PostgreSQL)', run, undefined, note(run));
    const executions = await load({ url: `${workflow}/api/v1/executions?limit=20`, headers: wfAuth });
    ctx.row('workflow GET /api/v1/executions?limit=20 (PostgreSQL)', executions, READ_TARGET, note(executions));
  } finally {
    await proc.stopAndClean();
    await sink.close();
    await schema.drop();
  }
}
