// Soak (issue 10): `npm run bench -- soak`. Two minutes (SOAK_SECONDS) of mixed load on all
// five services at once, writes and reads on each, while 200 WebSocket subscribers never read
// (100 home, 100 mail) and one address (127.0.0.3) keeps trying to hold 200 idle SMTP
// connections with NOOPs. Legitimate SMTP sessions come from another address (127.0.0.2) and
// from the platform mailer (mail sends between inboxes, the blog's verification mail).
// Reports the server's peak RSS, the p99 of each service's main read path and the share of
// legitimate SMTP sessions served. Targets: RSS < 1 GB, every p99 < 50 ms, 100 % served.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { ROOT, startHamletForBench, type BenchContext } from './lib.js';
import { smtpSocket } from './smtp-socket.js';

const SECONDS = Number(process.env.SOAK_SECONDS ?? 120);
const SLOW_READERS = 200;
const SMTP_HOLDERS = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : NaN;
};

async function createKey(dataDir: string, service: string): Promise<string> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', service],
    {
      cwd: ROOT,
      env: { ...process.env, HAMLET_DATA_DIR: dataDir, HAMLET_LOG_LEVEL: 'warn' },
    },
  );
  return (
    stdout
      .trim()
      .split(/\s+/)
      .find((w) => w.startsWith(`hamlet_${service}_`)) ?? stdout.trim()
  );
}

/** CPU seconds a process has used (Linux /proc): tells the server's own cost from a busy machine. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function memoryMb(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

/** Runs `fn` every `intervalMs` until `end` (no pile-up: a slow call delays the next). */
async function every(intervalMs: number, end: number, fn: () => Promise<void>): Promise<void> {
  while (Date.now() < end) {
    const started = Date.now();
    await fn().catch(() => {});
    await sleep(Math.max(0, intervalMs - (Date.now() - started)));
  }
}

/** One SMTP session over a raw socket: the greeting, then commands one at a time. */
function smtpClient(port: number, localAddress: string) {
  const { socket, reply, closed } = smtpSocket(port, localAddress);
  const greeting = reply();
  const cmd = (line: string) => {
    const p = reply();
    socket.write(line + '\r\n');
    return p;
  };
  return { socket, greeting, cmd, closed };
}

/** A legitimate sender: one full session with one message; true when the message got its 250. */
async function legitimateSession(port: number, to: string, n: number): Promise<boolean> {
  const c = smtpClient(port, '127.0.0.2');
  try {
    if (!(await c.greeting).startsWith('220')) return false;
    if (!(await c.cmd('EHLO legit.soak')).startsWith('250')) return false;
    if (!(await c.cmd('MAIL FROM:<legit@outside.soak>')).startsWith('250')) return false;
    if (!(await c.cmd(`RCPT TO:<${to}>`)).startsWith('250')) return false;
    if (!(await c.cmd('DATA')).startsWith('354')) return false;
    const body = [
      `From: legit@outside.soak`,
      `To: ${to}`,
      `Subject: legit ${n}`,
      `Message-ID: <legit${n}.${Date.now()}@outside.soak>`,
      '',
      `Message ${n}.`,
      '.',
    ].join('\r\n');
    const ok = (await c.cmd(body)).startsWith('250');
    await c.cmd('QUIT');
    return ok;
  } finally {
    c.socket.destroy();
  }
}

/** The attacker: keeps trying to hold `count` connections from one address with NOOPs, reconnecting as they close. */
function smtpHolder(port: number, count: number, end: number) {
  const stats = { greeted: 0, refused: 0, closedByServer: 0, maxHeld: 0, held: 0 };
  const one = async () => {
    while (Date.now() < end) {
      const c = smtpClient(port, '127.0.0.3');
      const greeting = await c.greeting;
      if (greeting.startsWith('220')) {
        stats.greeted++;
        stats.held++;
        stats.maxHeld = Math.max(stats.maxHeld, stats.held);
        await c.cmd('EHLO holder.soak');
        const noops = setInterval(() => void c.cmd('NOOP'), 5000);
        await Promise.race([c.closed, sleep(Math.max(0, end - Date.now()))]);
        clearInterval(noops);
        stats.held--;
        if (Date.now() < end) stats.closedByServer++;
      } else stats.refused++;
      c.socket.destroy();
      await sleep(5000);
    }
  };
  return { stats, done: Promise.all(Array.from({ length: count }, one)) };
}

/** A WebSocket subscriber that stops reading once subscribed. */
async function stalledSubscriber(
  url: string,
  setup: (ws: WebSocket, reply: (pred: (m: any) => boolean) => Promise<void>) => Promise<void>,
): Promise<WebSocket> {
  const ws = new WebSocket(url);
  const seen: any[] = [];
  const waiters: Array<{ pred: (m: any) => boolean; done: () => void }> = [];
  ws.on('message', (d) => {
    const parsed = JSON.parse(d.toString());
    for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
      seen.push(m);
      for (const w of [...waiters]) {
        if (!w.pred(m)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.done();
      }
    }
  });
  await new Promise((resolve, reject) => (ws.once('open', resolve), ws.once('error', reject)));
  const reply = (pred: (m: any) => boolean) =>
    seen.some(pred) ? Promise.resolve() : new Promise<void>((done) => waiters.push({ pred, done }));
  await setup(ws, reply);
  (ws as unknown as { _socket: net.Socket })._socket.pause();
  return ws;
}

export default async function soak(ctx: BenchContext): Promise<void> {
  const proc = await startHamletForBench(['blog', 'mail', 'community', 'home', 'workflow'], {
    MAIL_DOMAIN: 'mail.soak',
    HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
    BLOG_PUBLIC_SCHEME: 'http',
  });
  const pid = proc.child.pid!;
  const url = (service: string) => proc.urls[`${service} api`];
  const smtpPort = Number(new URL(proc.urls['mail smtp']).port);
  const rssSamples: number[] = [];
  const sampler = setInterval(() => rssSamples.push(memoryMb(pid).rss), 500);
  try {
    const [mailA, mailB, homeA, homeB, workflowKey] = await Promise.all([
      createKey(proc.dataDir, 'mail'),
      createKey(proc.dataDir, 'mail'),
      createKey(proc.dataDir, 'home'),
      createKey(proc.dataDir, 'home'),
      createKey(proc.dataDir, 'workflow'),
    ]);
    const json = async (method: string, u: string, body?: unknown, headers: Record<string, string> = {}) => {
      const res = await fetch(u, {
        method,
        headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      if (res.status >= 400) throw new Error(`${method} ${u}: ${res.status} ${text.slice(0, 200)}`);
      return text ? JSON.parse(text) : undefined;
    };
    const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

    // Mail: one inbox per organization (each key is its own organization).
    const inboxA = (await json('POST', `${url('mail')}/v0/inboxes`, { username: 'soak-a' }, bearer(mailA)))
      .inbox_id as string;
    const inboxB = (await json('POST', `${url('mail')}/v0/inboxes`, { username: 'soak-b' }, bearer(mailB)))
      .inbox_id as string;
    // Community: a community, a few posts, voters.
    const agent = async (name: string) =>
      (await json('POST', `${url('community')}/api/v1/agents/register`, { name, description: 'soak' })).agent
        .api_key as string;
    const author = await agent('soak_author');
    const voters = await Promise.all(Array.from({ length: 10 }, (_, i) => agent(`soak_voter_${i}`)));
    await json(
      'POST',
      `${url('community')}/api/v1/communities`,
      { name: 'soak', display_name: 'Soak', description: 'soak test' },
      bearer(author),
    );
    const postIds: string[] = [];
    for (let i = 0; i < 5; i++)
      postIds.push(
        (
          await json(
            'POST',
            `${url('community')}/api/v1/posts`,
            { community: 'soak', title: `Soak post ${i}`, content: 'x'.repeat(500) },
            bearer(author),
          )
        ).post.id,
      );
    // Workflow: a webhook that answers with its last node's output.
    const wfHeaders = { 'x-workflow-api-key': workflowKey };
    const wf = await json(
      'POST',
      `${url('workflow')}/api/v1/workflows`,
      {
        name: 'soak',
        nodes: [
          {
            name: 'Webhook',
            type: 'n8n-nodes-base.webhook',
            typeVersion: 2,
            position: [0, 0],
            webhookId: 'soak',
            parameters: { httpMethod: 'POST', path: 'soak', responseMode: 'lastNode', options: {} },
          },
          {
            name: 'Set',
            type: 'n8n-nodes-base.set',
            typeVersion: 3.4,
            position: [200, 0],
            parameters: {
              assignments: { assignments: [{ id: '1', name: 'echo', type: 'string', value: '={{ $json.body.n }}' }] },
              options: {},
            },
          },
        ],
        connections: { Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
        settings: { executionOrder: 'v1' },
      },
      wfHeaders,
    );
    await json('POST', `${url('workflow')}/api/v1/workflows/${wf.id}/activate`, undefined, wfHeaders);

    // The hostile clients: 200 stalled WebSocket subscribers, 200 SMTP holders from one address.
    const end = Date.now() + SECONDS * 1000;
    const holder = smtpHolder(smtpPort, SMTP_HOLDERS, end);
    const stalled: WebSocket[] = [];
    const homeWs = url('home').replace(/^http/, 'ws') + '/api/websocket';
    const mailWs = url('mail').replace(/^http/, 'ws') + '/v0';
    for (let i = 0; i < SLOW_READERS / 2; i++) {
      const token = i % 2 ? homeB : homeA;
      stalled.push(
        await stalledSubscriber(homeWs, async (ws, reply) => {
          await reply((m) => m.type === 'auth_required');
          ws.send(JSON.stringify({ type: 'auth', access_token: token }));
          await reply((m) => m.type === 'auth_ok');
          ws.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          ws.send(
            JSON.stringify(
              i % 4 < 2
                ? { id: 2, type: 'subscribe_events', event_type: 'state_changed' }
                : { id: 2, type: 'subscribe_entities' },
            ),
          );
          await reply((m) => m.id === 2 && m.type === 'result');
        }),
      );
      const key = i % 2 ? mailB : mailA;
      stalled.push(
        await stalledSubscriber(`${mailWs}?api_key=${key}`, async (ws, reply) => {
          ws.send(JSON.stringify({ type: 'subscribe' }));
          await reply((m) => m.type === 'subscribed');
        }),
      );
    }
    const afterSetup = memoryMb(pid).rss;
    const cpuBefore = cpuSeconds(pid);
    const loadStarted = Date.now();
    console.error(
      `  soak: ${stalled.length} stalled subscribers, SMTP holders started; RSS ${Math.round(afterSetup)} MB; ${SECONDS} s of load`,
    );

    // The blog's verification mail goes through the platform mailer into inbox A, under attack.
    const blogKey = (async () => {
      const started = Date.now();
      await json('POST', `${url('blog')}/api/register`, {
        email: inboxA,
        name: 'Soak Blog',
        slug: 'soak-blog',
        bio: 'soak',
      });
      for (;;) {
        const list = await json(
          'GET',
          `${url('mail')}/v0/inboxes/${inboxA}/messages?limit=50`,
          undefined,
          bearer(mailA),
        );
        for (const item of list.messages) {
          if (!/verify/i.test(item.subject ?? '')) continue;
          const m = await json(
            'GET',
            `${url('mail')}/v0/inboxes/${inboxA}/messages/${encodeURIComponent(item.message_id)}`,
            undefined,
            bearer(mailA),
          );
          const token = /token=([0-9a-f-]{36})/.exec(`${m.text ?? ''}`)?.[1];
          if (token) {
            const verified = await json('GET', `${url('blog')}/api/verify?token=${token}`, undefined, {
              accept: 'application/json',
            });
            return { key: verified.apiKey as string, ms: Date.now() - started };
          }
        }
        if (Date.now() > end) throw new Error('the verification mail never arrived');
        await sleep(200);
      }
    })();

    const reads: Record<string, { path: string; ms: number[]; errors: number }> = {
      blog: { path: 'GET /api/posts', ms: [], errors: 0 },
      mail: { path: 'GET /v0/inboxes/:id/messages?limit=50', ms: [], errors: 0 },
      community: { path: 'GET /api/v1/posts?sort=hot', ms: [], errors: 0 },
      home: { path: 'GET /api/states', ms: [], errors: 0 },
      workflow: { path: 'GET /api/v1/executions?limit=20', ms: [], errors: 0 },
    };
    // The control: a bare Fastify handler in another process, read the same way at the same
    // time. When its p99 is as high as the services', the machine is what is slow.
    const control = { path: 'GET / of a bare Fastify handler (control)', ms: [] as number[], errors: 0 };
    const writes: Record<string, { ok: number; failed: number }> = Object.fromEntries(
      Object.keys(reads).map((s) => [s, { ok: 0, failed: 0 }]),
    );
    const read = (service: string, u: string, headers: Record<string, string>) => async () => {
      const started = performance.now();
      const res = await fetch(u, { headers });
      await res.arrayBuffer();
      const into = reads[service] ?? control;
      if (res.status !== 200) into.errors++;
      else into.ms.push(performance.now() - started);
    };
    const write = (service: string, fn: () => Promise<Response>) => async () => {
      const res = await fn().catch(() => undefined);
      if (res) await res.arrayBuffer();
      if (res && res.status < 300) writes[service].ok++;
      else writes[service].failed++;
    };
    let n = 0;
    const legit = { tried: 0, served: 0 };
    const big = 'z'.repeat(2000);
    const homePayload = 'h'.repeat(8000);
    const post = (u: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(u, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });

    const verification = await Promise.all([
      blogKey,
      // Reads: 20/s on each service's main read path.
      every(50, end, read('blog', `${url('blog')}/api/posts`, {})),
      every(50, end, read('mail', `${url('mail')}/v0/inboxes/${inboxB}/messages?limit=50`, bearer(mailB))),
      every(50, end, read('community', `${url('community')}/api/v1/posts?sort=hot`, bearer(voters[0]))),
      every(50, end, read('home', `${url('home')}/api/states`, bearer(homeA))),
      every(50, end, read('workflow', `${url('workflow')}/api/v1/executions?limit=20`, wfHeaders)),
      every(50, end, read('control', ctx.baselineUrl, {})),
      // Writes on each service.
      (async () => {
        const { key } = await blogKey;
        await every(
          500,
          end,
          write('blog', () =>
            post(`${url('blog')}/api/publish`, { title: `Soak ${n++}`, content: `# Soak\n\n${big}` }, bearer(key)),
          ),
        );
      })(),
      every(
        500,
        end,
        write('mail', () =>
          post(
            `${url('mail')}/v0/inboxes/${inboxA}/messages/send`,
            { to: inboxB, subject: `soak ${n++}`, text: big },
            bearer(mailA),
          ),
        ),
      ),
      every(
        200,
        end,
        write('community', () =>
          post(
            `${url('community')}/api/v1/posts/${postIds[n % postIds.length]}/vote`,
            { direction: n % 3 ? 'up' : 'down' },
            bearer(voters[n++ % voters.length]),
          ),
        ),
      ),
      // 8 KB states at 20/s: about 19 MB per home subscriber over two minutes, more than the
      // kernel's socket buffers hold, so the stalled ones' queues grow on the server.
      every(
        50,
        end,
        write('home', () =>
          post(
            `${url('home')}/api/states/sensor.soak_${n % 10}`,
            { state: String(n++), attributes: { payload: homePayload } },
            bearer(homeA),
          ),
        ),
      ),
      every(
        200,
        end,
        write('workflow', () => post(`${url('workflow')}/webhook/soak`, { n: n++ })),
      ),
      // Legitimate SMTP sessions from another address, 2/s.
      every(500, end, async () => {
        legit.tried++;
        if (await legitimateSession(smtpPort, inboxB, legit.tried)) legit.served++;
      }),
    ]).then((r) => r[0]);
    await holder.done;
    const cpu = (cpuSeconds(pid) - cpuBefore) / ((Date.now() - loadStarted) / 1000);
    clearInterval(sampler);
    const peak = memoryMb(pid).peak;
    const rssMax = Math.max(peak, ...rssSamples);

    // Were the stalled subscribers cut? Let each read again (discarding) and count the ends.
    let cut = 0;
    for (const ws of stalled) {
      const socket = (ws as unknown as { _socket: net.Socket })._socket;
      socket.removeAllListeners('data');
      socket.once('close', () => cut++);
      socket.on('data', () => {});
      socket.resume();
    }
    for (let i = 0; i < 100 && cut < stalled.length; i++) await sleep(100);

    const rows: string[][] = [];
    const met = (ok: boolean) => (ok ? 'yes' : 'no');
    rows.push([
      'server RSS, max (VmHWM)',
      `${Math.round(rssMax)} MB (after setup ${Math.round(afterSetup)} MB, at end ${Math.round(rssSamples.at(-1) ?? NaN)} MB)`,
      '< 1024 MB',
      met(rssMax < 1024),
    ]);
    for (const [service, r] of Object.entries(reads)) {
      const p99 = percentile(r.ms, 0.99);
      rows.push([
        `${service}: p99 of ${r.path}`,
        `${p99.toFixed(1)} ms (${r.ms.length} reads, ${r.errors} non-200; writes ${writes[service].ok} ok / ${writes[service].failed} failed)`,
        '< 50 ms',
        met(p99 < 50 && r.errors === 0),
      ]);
    }
    rows.push([
      `control: p99 of ${control.path}`,
      `${percentile(control.ms, 0.99).toFixed(1)} ms (${control.ms.length} reads)`,
      '',
      '',
    ]);
    rows.push(['stalled WebSocket subscribers cut (100 home, 100 mail)', `${cut} / ${stalled.length}`, '', '']);
    rows.push([
      'legitimate SMTP sessions served (from 127.0.0.2)',
      `${legit.served} / ${legit.tried}`,
      '100 %',
      met(legit.tried > 0 && legit.served === legit.tried),
    ]);
    rows.push([
      'blog verification mail (platform mailer, under attack)',
      `delivered and verified in ${(verification.ms / 1000).toFixed(1)} s`,
      'delivered',
      'yes',
    ]);
    const s = holder.stats;
    rows.push([
      'server CPU during the load',
      `${Math.round(cpu * 100)} % of one core (machine load average ${os.loadavg()[0].toFixed(1)} at the end, 2 cores)`,
      '',
      '',
    ]);
    rows.push([
      'SMTP holder (127.0.0.3, 200 tries at once)',
      `at most ${s.maxHeld} held; ${s.greeted} greeted, ${s.refused} refused, ${s.closedByServer} closed by the idle/NOOP limits`,
      '',
      '',
    ]);
    console.log(
      `\n## soak (${SECONDS} s, all five services)\n\n| measure | value | target | met |\n|---|---|---|---|\n${rows.map((r) => `| ${r.join(' | ')} |`).join('\n')}\n`,
    );
    for (const ws of stalled) ws.terminate();
  } finally {
    clearInterval(sampler);
    await proc.stopAndClean();
  }
}
