// Home benchmark (issue 5): state writes/s through REST; service calls/s over the WebSocket;
// 100 WebSocket clients on subscribe_entities while 1000 state changes/s are made, with p99
// delivery latency (target < 50 ms, no client dropped); and a history query for one entity
// over 1M recorded states (target < 100 ms), the rows seeded straight into SQLite. Issue 14:
// template renders through POST /api/template (target ≥ 5000 req/s), and 100 clients each
// holding a render_template over 5 entities while 1000 state changes/s are made (target
// p99 re-render delivery < 50 ms).
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Pool } from 'undici';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { load, ROOT, startHamletForBench, type BenchContext } from './lib.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CLIENTS = Number(process.env.BENCH_HOME_CLIENTS ?? 100);
const RATE = Number(process.env.BENCH_HOME_RATE ?? 1000);
const ROWS = Number(process.env.BENCH_HOME_ROWS ?? 1_000_000);
const SEED_ENTITIES = 100;
const SEED_DAYS = 10;
/** Which parts to run (rest, ws, fanout, history, template, render); all by default. */
const PARTS = new Set((process.env.BENCH_HOME_PARTS ?? 'rest,ws,fanout,history,template,render').split(','));
/** render_template fan-out: sensors written, and entities each client's template reads. */
const TEMPLATE_SENSORS = 100;
const TEMPLATE_WIDTH = 5;

function createKey(dataDir: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', 'home'],
      {
        cwd: ROOT,
        env: { ...process.env, HAMLET_DATA_DIR: dataDir, HAMLET_LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => {
      const m = /(hamlet_home_\S+)/.exec(out);
      m ? resolve(m[1]) : reject(new Error(`no key in: ${out}`));
    });
  });
}

/** CPU seconds a process has used (Linux /proc), to tell the server's own cost from a busy machine. */
function cpuSeconds(pid: number | undefined): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0;

/** An authenticated WebSocket with coalesced messages, handing every message to `onMessage`. */
async function client(wsUrl: string, token: string, onMessage: (m: any) => void): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl);
  await new Promise<void>((resolve, reject) => {
    ws.on('message', (d) => {
      const parsed = JSON.parse(d.toString());
      for (const m of Array.isArray(parsed) ? parsed : [parsed]) {
        if (m.type === 'auth_ok') {
          ws.send(JSON.stringify({ id: 1, type: 'supported_features', features: { coalesce_messages: 1 } }));
          resolve();
        } else if (m.type === 'auth_invalid') reject(new Error(m.message));
        else onMessage(m);
      }
    });
    ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', access_token: token })));
    ws.once('error', reject);
  });
  return ws;
}

/** Service calls over N sockets, each keeping `window` calls in flight. */
async function wsServiceCalls(wsUrl: string, token: string): Promise<{ rps: number; p99: number }> {
  const sockets = 10;
  const window = 16;
  const latencies: number[] = [];
  let done = 0;
  const deadline = Date.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: sockets }, async (_, s) => {
      const sent = new Map<number, number>();
      let id = 1;
      let ws!: WebSocket;
      const finished = new Promise<void>((resolve) => {
        const send = () => {
          if (Date.now() > deadline) {
            if (sent.size === 0) resolve();
            return;
          }
          const n = ++id;
          sent.set(n, performance.now());
          ws.send(
            JSON.stringify({
              id: n,
              type: 'call_service',
              domain: 'light',
              service: 'turn_on',
              target: { entity_id: s % 2 ? 'light.kitchen' : 'light.hall' },
              service_data: { brightness: (n % 255) + 1 },
            }),
          );
        };
        void client(wsUrl, token, (m) => {
          if (m.type !== 'result' || !sent.has(m.id)) return;
          latencies.push(performance.now() - sent.get(m.id)!);
          sent.delete(m.id);
          done++;
          send();
        }).then((w) => {
          ws = w;
          for (let i = 0; i < window; i++) send();
        });
      });
      await finished;
      ws.close();
    }),
  );
  latencies.sort((a, b) => a - b);
  return { rps: done / SECONDS, p99: Math.round(percentile(latencies, 0.99) * 10) / 10 };
}

/**
 * The subscribers of the fan-out scenario, in a child process: parsing 100 clients' frames
 * must not delay the process that makes the changes (and stamps their send time).
 */
async function subscriberProcess(): Promise<void> {
  const { wsUrl, token, clients, mode } = JSON.parse(process.env.HOME_BENCH_SUBSCRIBERS!) as {
    wsUrl: string;
    token: string;
    clients: number;
    mode: FanOutMode;
  };
  const latencies: number[] = [];
  const sentAt: number[] = [];
  let dropped = 0;
  const sockets: WebSocket[] = [];
  for (let i = 0; i < clients; i++) {
    // render_template: each result is "<state>|<state>|…"; a part that differs from the last
    // result is a delivered change, stamped with its send time.
    const seen: string[] = [];
    const ws = await client(wsUrl, token, (m) => {
      if (m.type !== 'event') return;
      const now = Date.now();
      if (mode === 'templates') {
        if (typeof m.event.result !== 'string') return;
        m.event.result.split('|').forEach((part: string, j: number) => {
          if (seen[j] !== undefined && part !== seen[j] && part.includes(':')) {
            const sent = Number(part.split(':')[0]);
            latencies.push(now - sent);
            sentAt.push(sent);
          }
          seen[j] = part;
        });
        return;
      }
      if (!m.event.c) return;
      for (const [id, diff] of Object.entries(m.event.c as Record<string, { '+': { s?: string } }>)) {
        if (id.startsWith('sensor.fan_') && diff['+'].s) {
          const sent = Number(diff['+'].s.split(':')[0]);
          latencies.push(now - sent);
          sentAt.push(sent);
        }
      }
    });
    if (mode === 'templates') {
      const ids = Array.from({ length: TEMPLATE_WIDTH }, (_, j) => `sensor.tpl_${(i + j * 7) % TEMPLATE_SENSORS}`);
      ws.send(
        JSON.stringify({
          id: 2,
          type: 'render_template',
          template: ids.map((id) => `{{ states('${id}') }}`).join('|'),
        }),
      );
    } else ws.send(JSON.stringify({ id: 2, type: 'subscribe_entities' }));
    ws.on('close', () => dropped++);
    sockets.push(ws);
  }
  process.send!({ ready: true });
  process.once('message', () => {
    for (const ws of sockets) {
      ws.removeAllListeners('close');
      ws.close();
    }
    process.send!({ latencies, sentAt, dropped }, () => process.exit(0));
  });
}

type FanOutMode = 'entities' | 'templates';

/**
 * CLIENTS sockets on subscribe_entities (or each holding a render_template over TEMPLATE_WIDTH
 * sensors); RATE state changes/s through REST; delivery latency from the state value.
 */
async function fanOut(
  base: string,
  wsUrl: string,
  token: string,
  mode: FanOutMode = 'entities',
): Promise<{
  rps: number;
  p99: number;
  dropped: number;
  delivered: number;
  expected: number;
  rate: number;
  subscriberCpu?: number;
}> {
  if (mode === 'templates') {
    // Every sensor exists before the clients subscribe, so each write is a change they see.
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    for (let k = 0; k < TEMPLATE_SENSORS; k++)
      await fetch(`${base}/api/states/sensor.tpl_${k}`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ state: 'start' }),
      });
  }
  const worker = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url)], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, HOME_BENCH_SUBSCRIBERS: JSON.stringify({ wsUrl, token, clients: CLIENTS, mode }) },
  });
  const messages: any[] = [];
  let failure: Error | undefined;
  worker.on('message', (m) => void messages.push(m));
  worker.on('error', (err) => (failure = err));
  worker.on('exit', (code) => (failure ??= new Error(`subscriber process exited with ${code}`)));
  const nextMessage = async () => {
    while (!messages.length) {
      if (failure) throw failure;
      await new Promise((r) => setTimeout(r, 20));
    }
    return messages.shift();
  };
  await nextMessage(); // ready
  await new Promise((r) => setTimeout(r, 500));
  const sensors = mode === 'templates' ? TEMPLATE_SENSORS : 50;
  const prefix = mode === 'templates' ? 'sensor.tpl_' : 'sensor.fan_';
  // Enough connections that the writes never queue in the client (each waits for its commit).
  const pool = new Pool(base, { connections: 100, pipelining: 1 });
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  let n = 0;
  const tickMs = 10;
  const perTick = Math.max(1, Math.round((RATE * tickMs) / 1000));
  const start = Date.now();
  const subscriberCpuBefore = cpuSeconds(worker.pid);
  const inflight = new Set<Promise<unknown>>();
  // The first two seconds warm up (JIT, the pool's 100 connections, the subscribers' first
  // frames); they are printed per second above but not measured.
  const WARMUP_MS = 2000;
  for (let tick = 0; Date.now() - start < WARMUP_MS + SECONDS * 1000; tick++) {
    for (let i = 0; i < perTick; i++) {
      const k = n++;
      // The state carries the send time (plus a counter, so every write is a change).
      const p = pool
        .request({
          path: `/api/states/${prefix}${k % sensors}`,
          method: 'POST',
          headers,
          body: JSON.stringify({ state: `${Date.now()}:${k}` }),
        })
        .then((r) => r.body.dump());
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    // Paced against the start, so a late tick is made up by the next ones.
    await new Promise((r) => setTimeout(r, Math.max(0, start + (tick + 1) * tickMs - Date.now())));
  }
  const elapsed = (Date.now() - start) / 1000;
  const subscriberCpuAfter = cpuSeconds(worker.pid);
  await Promise.all(inflight);
  await new Promise((r) => setTimeout(r, 500));
  worker.send('stop');
  const { latencies, sentAt, dropped } = (await nextMessage()) as {
    latencies: number[];
    sentAt: number[];
    dropped: number;
  };
  // p99 per second of the run, to tell a warm-up from a steady tail.
  const perSecond = new Map<number, number[]>();
  sentAt.forEach((t, i) => {
    const sec = Math.floor((t - start) / 1000);
    if (!perSecond.has(sec)) perSecond.set(sec, []);
    perSecond.get(sec)!.push(latencies[i]);
  });
  console.error(
    `  fan-out p99 by second: ${[...perSecond]
      .sort((a, b) => a[0] - b[0])
      .map(
        ([sec, l]) =>
          `${sec}s ${percentile(
            l.sort((a, b) => a - b),
            0.99,
          )}`,
      )
      .join(', ')}`,
  );
  await pool.close();
  const steady = latencies.filter((_, i) => sentAt[i] >= start + WARMUP_MS).sort((a, b) => a - b);
  const warmup = latencies.filter((_, i) => sentAt[i] < start + WARMUP_MS).sort((a, b) => a - b);
  console.error(
    `  fan-out latency ms after warm-up: p50 ${percentile(steady, 0.5)}, p90 ${percentile(steady, 0.9)}, p99 ${percentile(steady, 0.99)}, max ${steady.at(-1)}; warm-up p99 ${percentile(warmup, 0.99)}`,
  );
  const subscriberCpu =
    subscriberCpuBefore === undefined || subscriberCpuAfter === undefined
      ? undefined
      : (subscriberCpuAfter - subscriberCpuBefore) / elapsed;
  const measured = elapsed - WARMUP_MS / 1000;
  // The first write of each sensor is an add, not a change: 50 per client are not counted.
  // A template client sees the changes of its TEMPLATE_WIDTH sensors (created beforehand).
  const expected = mode === 'templates' ? n * TEMPLATE_WIDTH * (CLIENTS / TEMPLATE_SENSORS) : (n - 50) * CLIENTS;
  return {
    rps: steady.length / measured,
    p99: percentile(steady, 0.99),
    dropped,
    delivered: latencies.length,
    expected: Math.round(expected),
    rate: n / elapsed,
    subscriberCpu,
  };
}

/** 1M recorder rows over SEED_DAYS days for SEED_ENTITIES entities, written in big transactions. */
function seedHistory(file: string, nowS: number): void {
  const db = new Database(file);
  db.pragma('busy_timeout = 10000');
  const ins = db.prepare(
    'INSERT INTO home_states (entity_id, state, attributes, last_changed_ts, last_updated_ts, context_id, context_user_id, context_parent_id) VALUES (?, ?, ?, ?, ?, ?, NULL, NULL)',
  );
  const span = SEED_DAYS * 86_400;
  const perEntity = Math.floor(ROWS / SEED_ENTITIES);
  const chunk = 100_000;
  for (let done = 0; done < ROWS; done += chunk) {
    db.transaction(() => {
      for (let i = done; i < Math.min(ROWS, done + chunk); i++) {
        const e = i % SEED_ENTITIES;
        const k = Math.floor(i / SEED_ENTITIES);
        const ts = nowS - span + (k / perEntity) * span + e / 1000;
        ins.run(
          `sensor.seed_${e}`,
          String(k % 30),
          `{"unit_of_measurement":"W","friendly_name":"Seed ${e}"}`,
          ts,
          ts,
          `01SEED${String(i).padStart(20, '0')}`,
        );
      }
    })();
  }
  db.exec('ANALYZE');
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

export default async function homeBench(ctx: BenchContext) {
  // The fan-out's 100 subscribers share one token: above the per-key share of WebSocket clients.
  const hamlet = await startHamletForBench(['home'], { HAMLET_WS_MAX_PER_KEY: '200' });
  try {
    const base = hamlet.urls['home api'];
    const wsUrl = base.replace(/^http/, 'ws') + '/api/websocket';
    const token = await createKey(hamlet.dataDir);
    const auth = { authorization: `Bearer ${token}` };
    const headers = { ...auth, 'content-type': 'application/json' };
    const warm = async (url: string) => {
      for (let w = 0; w < 20; w++)
        await Promise.all(Array.from({ length: 4 }, () => fetch(url, { headers: auth }).then((r) => r.arrayBuffer())));
    };

    let i = 0;
    if (PARTS.has('rest')) {
      ctx.row(
        'POST /api/states (state writes)',
        await load({
          url: base,
          method: 'POST',
          requests: [
            {
              method: 'POST',
              setupRequest: (req) => ({
                ...req,
                path: `/api/states/sensor.bench_${i % 100}`,
                headers,
                body: JSON.stringify({ state: String(i++) }),
              }),
            },
          ],
        }),
        undefined,
        'each a change, committed before the answer',
      );
      ctx.row(
        'GET /api/states',
        await load({ url: `${base}/api/states`, headers: auth }),
        undefined,
        `${100 + 20} entities`,
      );
    }
    if (PARTS.has('ws'))
      ctx.row(
        'WS call_service (light.turn_on)',
        await wsServiceCalls(wsUrl, token),
        undefined,
        'calls/s, 10 sockets × 16 in flight',
      );

    if (PARTS.has('fanout')) {
      const cpuBefore = cpuSeconds(hamlet.child.pid);
      const fanStarted = Date.now();
      const fan = await fanOut(base, wsUrl, token);
      const cpuAfter = cpuSeconds(hamlet.child.pid);
      const serverCpu =
        cpuBefore === undefined || cpuAfter === undefined
          ? ''
          : `; server used ${Math.round(((cpuAfter - cpuBefore) / ((Date.now() - fanStarted) / 1000)) * 100)}% of one core`;
      const clientCpu =
        fan.subscriberCpu === undefined ? '' : `, the 100 subscribers ${Math.round(fan.subscriberCpu * 100)}%`;
      ctx.row(
        `subscribe_entities fan-out, ${CLIENTS} clients, ${Math.round(fan.rate)} changes/s made (asked ${RATE})`,
        { rps: fan.rps, p99: fan.p99 },
        undefined,
        `messages/s delivered; ${fan.delivered}/${fan.expected} delivered, ${fan.dropped} clients dropped${serverCpu}${clientCpu}; target p99 < 50 ms`,
      );
    }
    if (PARTS.has('template')) {
      // Fresh headers: autocannon writes a content-length into the headers object it is given,
      // so the object the REST part loaded with would carry that part's length here.
      const headers = { ...auth, 'content-type': 'application/json' };
      await fetch(`${base}/api/states/sensor.bench_power`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ state: '1234.5', attributes: { unit_of_measurement: 'W' } }),
      });
      const template =
        "{{ (states('sensor.bench_power') | float / 1000) | round(2) }} kW, {{ states.light | selectattr('state', 'eq', 'on') | list | count }} lights on, kitchen {{ iif(is_state('light.kitchen', 'on'), 'lit', 'dark') }}";
      const body = JSON.stringify({ template });
      // The probe on a connection of its own (a reused keep-alive connection can meet the server's idle cut).
      const probePool = new Pool(base, { connections: 1 });
      const probe = await (
        await probePool.request({ path: '/api/template', method: 'POST', headers, body })
      ).body.text();
      await probePool.close();
      const r = await load({ url: `${base}/api/template`, method: 'POST', headers, body });
      ctx.row('POST /api/template', r, undefined, `answers "${probe}"; ${r.non2xx} non-2xx; target ≥ 5000 req/s`);
    }
    if (PARTS.has('render')) {
      const cpuBefore = cpuSeconds(hamlet.child.pid);
      const started = Date.now();
      const fan = await fanOut(base, wsUrl, token, 'templates');
      const cpuAfter = cpuSeconds(hamlet.child.pid);
      const serverCpu =
        cpuBefore === undefined || cpuAfter === undefined
          ? ''
          : `; server used ${Math.round(((cpuAfter - cpuBefore) / ((Date.now() - started) / 1000)) * 100)}% of one core`;
      ctx.row(
        `render_template, ${CLIENTS} clients × ${TEMPLATE_WIDTH} entities, ${Math.round(fan.rate)} changes/s made (asked ${RATE})`,
        { rps: fan.rps, p99: fan.p99 },
        undefined,
        `re-renders/s delivered; ${fan.delivered}/${fan.expected} changes seen, ${fan.dropped} clients dropped${serverCpu}; target p99 < 50 ms`,
      );
    }
    if (!PARTS.has('history')) return;

    const started = Date.now();
    const nowS = Date.now() / 1000;
    seedHistory(path.join(hamlet.dataDir, 'hamlet.sqlite'), nowS);
    console.error(`  seeded ${ROWS} recorder rows in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    const dayStart = new Date((nowS - 3 * 86_400) * 1000).toISOString();
    const dayEnd = new Date((nowS - 2 * 86_400) * 1000).toISOString();
    const url = `${base}/api/history/period/${encodeURIComponent(dayStart)}?filter_entity_id=sensor.seed_7&end_time=${encodeURIComponent(dayEnd)}`;
    const probe = (await (await fetch(url, { headers: auth })).json()) as unknown[][];
    await warm(url);
    // One connection: the p99 is the latency of a query, not of a queue of them.
    ctx.row(
      'GET /api/history/period (1 entity, 1 day, of 1M rows)',
      await load({ url, headers: auth, connections: 1 }),
      undefined,
      `${probe[0]?.length ?? 0} rows per answer, 1 connection; target p99 < 100 ms`,
    );
    ctx.row('… same, 4 connections', await load({ url, headers: auth, connections: 4 }));
    const minimal = `${url}&minimal_response&no_attributes`;
    await warm(minimal);
    ctx.row(
      '… with minimal_response&no_attributes, 1 connection',
      await load({ url: minimal, headers: auth, connections: 1 }),
    );
  } finally {
    await hamlet.stopAndClean();
  }
}

if (process.env.HOME_BENCH_SUBSCRIBERS && process.send) void subscriberProcess();
