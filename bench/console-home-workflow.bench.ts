// The console's home and workflow pages under load (issue 18: every page < 300 ms with 100
// entities and 10k executions stored). Hamlet runs as a child process with the console on;
// the home gets sensors until it has 100 entities, and a webhook workflow is called 10k times
// so its executions are stored as the engine stores them. Each page is then loaded by one
// client at a time (what a person does) and by ten, and the p99 is compared with 300 ms.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { load, ROOT, startHamletForBench, type BenchContext } from './lib.js';

const ENTITIES = 100;
const EXECUTIONS = Number(process.env.BENCH_CONSOLE_EXECUTIONS ?? 10_000);
const TARGET_MS = 300;

function createKey(dataDir: string, service: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'src/cli.ts'), 'keys', 'create', service],
      {
        cwd: ROOT,
        env: { ...process.env, HAMLET_DATA_DIR: dataDir, HAMLET_LOG_LEVEL: 'warn', HAMLET_SERVICES: 'home,workflow' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('exit', () => {
      const m = new RegExp(`(hamlet_${service}_\\S+)`).exec(out);
      if (m) resolve(m[1]);
      else reject(new Error(`no ${service} key in: ${out}`));
    });
  });
}

const hookWorkflow = {
  name: 'bench console',
  nodes: [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      position: [0, 0],
      webhookId: 'bench-console',
      parameters: { httpMethod: 'POST', path: 'bench-console', responseMode: 'lastNode', options: {} },
    },
    {
      name: 'Set',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [220, 0],
      parameters: {
        assignments: { assignments: [{ id: '1', name: 'echo', type: 'string', value: '={{ $json.body.msg }}' }] },
        options: {},
      },
    },
  ],
  connections: { Webhook: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

export default async function consoleBench(ctx: BenchContext): Promise<void> {
  const hamlet = await startHamletForBench(['home', 'workflow'], { HAMLET_CONSOLE: 'on', HAMLET_CONSOLE_PORT: '0' });
  try {
    const consoleUrl = hamlet.urls['console web'];
    if (!consoleUrl) throw new Error(`the console's URL is not in the banner: ${JSON.stringify(hamlet.urls)}`);
    const [admin, homeKey, wfKey] = await Promise.all([
      createKey(hamlet.dataDir, 'admin'),
      createKey(hamlet.dataDir, 'home'),
      createKey(hamlet.dataDir, 'workflow'),
    ]);
    const home = hamlet.urls['home api'];
    const wf = hamlet.urls['workflow api'];
    const homeHeaders = { authorization: `Bearer ${homeKey}`, 'content-type': 'application/json' };
    const wfHeaders = { 'x-n8n-api-key': wfKey, 'content-type': 'application/json' };

    const states = (await (await fetch(`${home}/api/states`, { headers: homeHeaders })).json()) as unknown[];
    for (let i = states.length; i < ENTITIES; i++) {
      await fetch(`${home}/api/states/sensor.bench_${i}`, {
        method: 'POST',
        headers: homeHeaders,
        body: JSON.stringify({
          state: String(i),
          attributes: { unit_of_measurement: 'W', friendly_name: `Bench ${i}` },
        }),
      });
    }
    const created = (await (
      await fetch(`${wf}/api/v1/workflows`, { method: 'POST', headers: wfHeaders, body: JSON.stringify(hookWorkflow) })
    ).json()) as { id: string };
    await fetch(`${wf}/api/v1/workflows/${created.id}/activate`, { method: 'POST', headers: wfHeaders });
    await load({
      url: `${wf}/webhook/bench-console`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"msg":"seed"}',
      amount: EXECUTIONS,
      connections: 10,
    });
    const last = (await (await fetch(`${wf}/api/v1/executions?limit=1`, { headers: wfHeaders })).json()) as {
      data: Array<{ id: string }>;
    };
    console.error(`  seeded ${ENTITIES} entities and ${EXECUTIONS} executions`);

    const headers = { authorization: `Bearer ${admin}` };
    const pages: Array<[string, string]> = [
      ['GET /home (dashboard, 100 entities)', '/home'],
      ['GET /home/entities/light.kitchen (history SVG, logbook)', '/home/entities/light.kitchen'],
      ['GET /home/logbook', '/home/logbook'],
      ['GET /home/automations', '/home/automations'],
      ['GET /workflows', '/workflows'],
      [`GET /workflows/:id (canvas)`, `/workflows/${created.id}`],
      [`GET /workflows/executions (${EXECUTIONS / 1000}k stored, 50 a page)`, '/workflows/executions'],
      ['GET /workflows/executions/:id (run data)', `/workflows/executions/${last.data[0].id}`],
    ];
    for (const [name, p] of pages) {
      const one = await load({ url: consoleUrl + p, headers, connections: 1 });
      const ten = await load({ url: consoleUrl + p, headers, connections: 10 });
      const failed = one.non2xx + ten.non2xx + one.errors + ten.errors;
      ctx.row(
        name,
        one,
        undefined,
        `1 client; 10 clients: ${Math.round(ten.rps)} req/s, p99 ${ten.p99} ms; target p99 < ${TARGET_MS} ms: ${Math.max(one.p99, ten.p99) < TARGET_MS ? 'met' : 'not met'}${failed ? `; ${failed} failed` : ''}`,
      );
    }
  } finally {
    await hamlet.stopAndClean();
  }
}
