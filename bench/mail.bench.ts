// Mail benchmark (issue 3): SMTP ingest of 10k messages with a raw-socket SMTP client (not
// nodemailer, which caps itself), API sends inbox→inbox, SMTP submission with STARTTLS + AUTH
// (issue 15), the message list at 100k stored messages, and webhook deliveries per second.
// Targets: ingest ≥ 500 messages/s stored and listable; submission ≥ 300 messages/s; list
// ≥ 25% of a bare Fastify handler in the same run.
import Database from 'better-sqlite3';
import { execFile } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { load, loadWithWrk, ROOT, startHamletForBench, type BenchContext } from './lib.js';
import { smtpSocket, smtpTlsSession } from './smtp-socket.js';

const INGEST = Number(process.env.BENCH_MAIL_INGEST ?? 10_000);
const LIST_SIZE = Number(process.env.BENCH_MAIL_LIST ?? 100_000);
const WEBHOOK_EVENTS = Number(process.env.BENCH_MAIL_WEBHOOKS ?? 2_000);
const SUBMISSIONS = Number(process.env.BENCH_MAIL_SUBMIT ?? 5_000);
const CONNECTIONS = 8;

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

/** One SMTP connection speaking the protocol by hand: a command, then its reply. */
async function smtpConnection(port: number) {
  const { socket, reply } = smtpSocket(port);
  await reply();
  const cmd = (s: string) => {
    const p = reply();
    socket.write(s);
    return p;
  };
  await cmd('EHLO bench.local\r\n');
  return {
    async send(from: string, to: string, message: string): Promise<string> {
      // PIPELINING: envelope and DATA in one write, as real MTAs do.
      const replies = [reply(), reply(), reply()];
      socket.write(`MAIL FROM:<${from}>\r\nRCPT TO:<${to}>\r\nDATA\r\n`);
      const [, rcpt, data] = await Promise.all(replies);
      if (!data.startsWith('354')) throw new Error(`SMTP refused: ${rcpt} ${data}`);
      return cmd(message + '\r\n.\r\n');
    },
    close: () => socket.end('QUIT\r\n'),
  };
}

function message(i: number, to: string, from = `Load Tester <load${i % 50}@outside.test>`): string {
  const boundary = `b${i}`;
  return [
    `From: ${from}`,
    `To: ${to}`,
    `Subject: Load message ${i} — ümlaut`,
    `Message-ID: <load-${i}-${Date.now()}@outside.test>`,
    'MIME-Version: 1.0',
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    `Hello, this is message ${i}. `.repeat(20),
    `--${boundary}`,
    'Content-Type: text/html; charset=utf-8',
    '',
    `<p>Hello, this is <b>message ${i}</b>.</p>`.repeat(20),
    `--${boundary}--`,
  ].join('\r\n');
}

/** Copies one stored message row until the inbox holds `total` messages (straight into SQLite). */
function seedMessages(file: string, inbox: string, total: number): void {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const template = db.prepare('SELECT * FROM mail_messages WHERE inbox_id = ? LIMIT 1').get(inbox) as Record<
    string,
    unknown
  >;
  const have = (db.prepare('SELECT count(*) AS n FROM mail_messages WHERE inbox_id = ?').get(inbox) as { n: number }).n;
  const cols = Object.keys(template);
  const ins = db.prepare(
    `INSERT INTO mail_messages (${cols.join(',')}) VALUES (${cols.map((c) => '@' + c).join(',')})`,
  );
  const start = Date.parse('2025-01-01T00:00:00Z');
  db.transaction(() => {
    for (let i = have; i < total; i++) {
      const ts = new Date(start + i * 1000).toISOString();
      ins.run({
        ...template,
        id: `seed${String(i).padStart(10, '0')}`,
        message_id: `<seed-${i}@outside.test>`,
        timestamp: ts,
        created_at: ts,
        updated_at: ts,
      });
    }
  })();
  db.close();
}

export default async function mailBench(ctx: BenchContext) {
  const hamlet = await startHamletForBench(['mail'], {
    MAIL_DOMAIN: 'mail.bench',
    HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
  });
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', 'mail'],
      {
        cwd: ROOT,
        env: { ...process.env, HAMLET_DATA_DIR: hamlet.dataDir },
      },
    );
    const key = stdout.trim();
    const api = hamlet.urls['mail api'];
    const smtpPort = Number(new URL(hamlet.urls['mail smtp']).port);
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const post = async (p: string, body: unknown) =>
      (await fetch(api + p, { method: 'POST', headers, body: JSON.stringify(body) })).json();
    const ingestInbox = (await post('/v0/inboxes', { username: 'ingest' })).inbox_id as string;
    const a = (await post('/v0/inboxes', { username: 'sender' })).inbox_id as string;
    const b = (await post('/v0/inboxes', { username: 'receiver' })).inbox_id as string;
    const hooked = (await post('/v0/inboxes', { username: 'hooked' })).inbox_id as string;

    // 1. SMTP ingest: 10k messages over 8 connections. A message is committed before the 250
    //    reply, so the time to 250 is the time until it is listable.
    const latencies: number[] = [];
    let next = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const conn = await smtpConnection(smtpPort);
        while (next < INGEST) {
          const i = next++;
          const started = performance.now();
          const r = await conn.send(`load${i % 50}@outside.test`, ingestInbox, message(i, ingestInbox));
          if (!r.startsWith('250')) throw new Error(`message ${i}: ${r}`);
          latencies.push(performance.now() - started);
        }
        conn.close();
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const listed = (await (await fetch(`${api}/v0/inboxes/${ingestInbox}/threads?limit=1`, { headers })).json()) as {
      count: number;
    };
    if (listed.count !== 1) throw new Error('ingested messages are not listable');
    const db = new Database(path.join(hamlet.dataDir, 'hamlet.sqlite'), { readonly: true });
    const stored = (
      db.prepare('SELECT count(*) AS n FROM mail_messages WHERE inbox_id = ?').get(ingestInbox) as { n: number }
    ).n;
    db.close();
    if (stored !== INGEST) throw new Error(`stored ${stored} of ${INGEST}`);
    ctx.row(
      `SMTP ingest, ${INGEST} messages, ${CONNECTIONS} connections (messages/s; p99 = until listable)`,
      { rps: INGEST / seconds, p99: Math.round(percentile(latencies, 99)) },
      { rps: 500 },
    );

    // 2. API sends inbox → inbox (both copies filed, events recorded).
    const send = await load({
      url: `${api}/v0/inboxes/${a}/messages/send`,
      method: 'POST',
      headers,
      body: JSON.stringify({ to: b, subject: 'Bench', text: 'Hello from the benchmark', html: '<p>Hello</p>' }),
      connections: 8,
    });
    ctx.row('API send inbox→inbox (messages/s)', send, undefined, send.non2xx ? `${send.non2xx} non-2xx` : undefined);

    // 2b. SMTP submission as a mail client does it: STARTTLS, AUTH PLAIN with the mail key, then
    //     messages sent as an inbox to another inbox (the sent copy and the delivered copy are
    //     both filed before the 250), 8 connections, envelope and DATA pipelined. The TLS
    //     handshakes and AUTH are inside the measured time.
    const submitter = (await post('/v0/inboxes', { username: 'submitter' })).inbox_id as string;
    const submissionPort = Number(new URL(hamlet.urls['mail submission']).port);
    const submitLatencies: number[] = [];
    let nextSubmit = 0;
    const s0 = performance.now();
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const session = await smtpTlsSession(submissionPort, { user: submitter, pass: key });
        while (nextSubmit < SUBMISSIONS) {
          const i = nextSubmit++;
          const started = performance.now();
          const replies = [session.reply(), session.reply(), session.reply()];
          session.socket.write(`MAIL FROM:<${submitter}>\r\nRCPT TO:<${b}>\r\nDATA\r\n`);
          const [from, rcpt, data] = await Promise.all(replies);
          if (!data.startsWith('354')) throw new Error(`submission refused: ${from} ${rcpt} ${data}`);
          const done = session.reply();
          session.socket.write(message(i, b, submitter) + '\r\n.\r\n');
          const r = await done;
          if (!r.startsWith('250')) throw new Error(`submission ${i}: ${r}`);
          submitLatencies.push(performance.now() - started);
        }
        session.socket.end('QUIT\r\n');
      }),
    );
    const submitSeconds = (performance.now() - s0) / 1000;
    ctx.row(
      `SMTP submission, STARTTLS + AUTH PLAIN, ${SUBMISSIONS} messages inbox→inbox, ${CONNECTIONS} connections (messages/s)`,
      { rps: SUBMISSIONS / submitSeconds, p99: Math.round(percentile(submitLatencies, 99)) },
      { rps: 300 },
    );

    // 3. The message list of an inbox holding 100k messages.
    seedMessages(path.join(hamlet.dataDir, 'hamlet.sqlite'), ingestInbox, LIST_SIZE);
    const list = await load({ url: `${api}/v0/inboxes/${ingestInbox}/messages?limit=50`, headers });
    ctx.row(
      `GET message list, 50 of ${LIST_SIZE / 1000}k messages`,
      list,
      { ratio: 0.25 },
      list.non2xx ? `${list.non2xx} non-2xx` : undefined,
    );
    const unread = await load({
      url: `${api}/v0/inboxes/${ingestInbox}/messages?limit=50&labels=%5B%22unread%22%5D`,
      headers,
    });
    ctx.row(`GET message list labels=["unread"], ${LIST_SIZE / 1000}k messages`, unread, { ratio: 0.25 });
    // The page holds non-ASCII text (the subjects), on which autocannon's parser is the
    // bottleneck (see loadWithWrk): measure the same page and the bare handler with wrk too.
    const wrkBase = await loadWithWrk({ url: ctx.baselineUrl });
    const wrkList = await loadWithWrk({
      url: `${api}/v0/inboxes/${ingestInbox}/messages?limit=50`,
      headers: { authorization: headers.authorization },
    });
    if (wrkBase && wrkList) {
      ctx.row(
        `GET message list, 50 of ${LIST_SIZE / 1000}k messages, measured with wrk`,
        wrkList,
        { ratio: 0.25 },
        `bare Fastify with wrk in the same run: ${Math.round(wrkBase.rps)} req/s`,
        wrkBase.rps,
      );
    }

    // 4. Webhook deliveries: one signed POST per received message to a local receiver. The
    //    receiver holds every request until all messages are in, so the rate measured after
    //    that is the delivery path alone (claim, sign, POST, finish), not the ingest.
    let delivered = 0;
    let lastAt = 0;
    let openGate!: () => void;
    const gate = new Promise<void>((r) => (openGate = r));
    const receiver = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        void gate.then(() => {
          delivered++;
          lastAt = performance.now();
          res.end();
        });
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const port = (receiver.address() as net.AddressInfo).port;
    await post('/v0/webhooks', {
      url: `http://127.0.0.1:${port}/hook`,
      event_types: ['message.received'],
      inbox_ids: [hooked],
    });
    let n = 0;
    await Promise.all(
      Array.from({ length: CONNECTIONS }, async () => {
        const conn = await smtpConnection(smtpPort);
        while (n < WEBHOOK_EVENTS) await conn.send('hook@outside.test', hooked, message(n++, hooked));
        conn.close();
      }),
    );
    const w0 = performance.now();
    openGate();
    const deadline = performance.now() + 120_000;
    while (delivered < WEBHOOK_EVENTS && performance.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    receiver.close();
    ctx.row(
      `webhook deliveries, ${WEBHOOK_EVENTS} queued events (deliveries/s)`,
      { rps: delivered / ((lastAt - w0) / 1000), p99: 0 },
      undefined,
      delivered < WEBHOOK_EVENTS ? `only ${delivered} delivered` : undefined,
    );
  } finally {
    await hamlet.stopAndClean();
  }
}
