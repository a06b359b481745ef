// Runs the real Node-RED (installed on demand by scripts/clients/install.ts) with the Home
// Assistant nodes and a set of flows, pointed at a home server, and hands back what the flows
// output. Flows are the committed files in ./flows: plain Node-RED exports, except that a wire
// to "collect:<tag>" means "report this output to the test under <tag>"; the driver turns each
// such wire into a function node that passes the message, over Node's IPC channel, to the test.
// Inject nodes are pressed through Node-RED's admin API, as the editor's button does.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { binOf, ensureClient } from '../../../scripts/clients/install.js';
import { waitFor, withDeadline } from '../../helpers/wait.js';

const FLOWS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'flows');
const SERVER_NODE_ID = 'hamlet-server';

export interface FlowNode {
  id: string;
  type: string;
  z?: string;
  wires?: string[][];
  [key: string]: unknown;
}

export interface Collected {
  /** The tag of the collect wire (the flow file's name and the tag, as "<flow>/<tag>"). */
  tag: string;
  msg: Record<string, any>;
}

export interface NodeRed {
  /** Every message collected so far, in arrival order. */
  collected: Collected[];
  /** Waits for the next collected message under `tag` (after those already taken). */
  next(tag: string, timeoutMs?: number): Promise<Record<string, any>>;
  /** Presses an inject node. */
  inject(nodeId: string): Promise<void>;
  /** Node-RED's console output so far (for failure messages). */
  log(): string;
  stop(): Promise<void>;
}

/** The committed flow files, by name (file name without .json). */
export function flowFiles(): Record<string, FlowNode[]> {
  const out: Record<string, FlowNode[]> = {};
  for (const f of readdirSync(FLOWS_DIR)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    out[f.replace(/\.json$/, '')] = JSON.parse(readFileSync(path.join(FLOWS_DIR, f), 'utf8')) as FlowNode[];
  }
  return out;
}

/** The flows with each collect:<tag> wire replaced by a reporting function node. */
function withCollectors(flows: Record<string, FlowNode[]>): FlowNode[] {
  const all: FlowNode[] = [];
  for (const [name, nodes] of Object.entries(flows)) {
    const collectors = new Map<string, FlowNode>();
    const tab = nodes.find((n) => n.type === 'tab')?.id;
    for (const node of nodes) {
      node.wires = node.wires?.map((outs) =>
        outs.map((target) => {
          if (!target.startsWith('collect:')) return target;
          const tag = `${name}/${target.slice('collect:'.length)}`;
          let c = collectors.get(tag);
          if (!c) {
            c = {
              id: `collect-${tag.replace(/[^a-z0-9]/gi, '-')}`,
              type: 'function',
              z: tab,
              name: `collect ${tag}`,
              func: `global.get('hamletCollect')(${JSON.stringify(tag)}, msg);\nreturn null;`,
              outputs: 0,
              wires: [],
            };
            collectors.set(tag, c);
          }
          return c.id;
        }),
      );
      all.push(node);
    }
    all.push(...collectors.values());
  }
  return all;
}

/** The settings.js Node-RED starts with: loopback only, no credential encryption, the IPC reporter. */
const SETTINGS = `module.exports = {
  uiHost: '127.0.0.1',
  flowFile: 'flows.json',
  credentialSecret: false,
  httpAdminRoot: '/',
  httpNodeRoot: '/api-nodes',
  logging: { console: { level: 'debug', metrics: false, audit: false } },
  diagnostics: { enabled: false },
  telemetry: { enabled: false },
  externalModules: { autoInstall: false, palette: { allowInstall: false }, modules: { allowInstall: false } },
  editorTheme: { tours: false, projects: { enabled: false } },
  functionGlobalContext: {
    hamletCollect(tag, msg) {
      let copy;
      try { copy = JSON.parse(JSON.stringify(msg)); } catch (e) { copy = { error: String(e) }; }
      process.send({ tag, msg: copy });
    },
  },
};
`;

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

/**
 * Starts Node-RED with the given flows and one Home Assistant server config node
 * (id SERVER_NODE_ID) for `homeUrl` and `token`; resolves once it has started its flows.
 */
export async function startNodeRed(opts: {
  homeUrl: string;
  token: string;
  flows: Record<string, FlowNode[]>;
  env?: Record<string, string>;
}): Promise<NodeRed> {
  await ensureClient('node-red');
  const userDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-node-red-'));
  const server: FlowNode = {
    id: SERVER_NODE_ID,
    type: 'server',
    name: 'Hamlet',
    version: 6,
    addon: false,
    rejectUnauthorizedCerts: true,
    ha_boolean: ['y', 'yes', 'true', 'on', 'home', 'open'],
    // Node-RED waits 5 s before its first connection unless told not to.
    connectionDelay: false,
    cacheJson: true,
    // Its keep-alive: a ping every 10 s (the least it allows), reconnecting without a pong.
    heartbeat: true,
    heartbeatInterval: 10,
    areaSelector: 'friendlyName',
    deviceSelector: 'friendlyName',
    entitySelector: 'friendlyName',
    statusSeparator: ': ',
    statusYear: 'hidden',
    statusMonth: 'short',
    statusDay: 'numeric',
    statusHourCycle: 'default',
    statusTimeFormat: 'h:m',
    enableGlobalContextStore: false,
  };
  writeFileSync(path.join(userDir, 'settings.js'), SETTINGS);
  writeFileSync(
    path.join(userDir, 'flows.json'),
    JSON.stringify([server, ...withCollectors(structuredClone(opts.flows))], null, 2),
  );
  writeFileSync(
    path.join(userDir, 'flows_cred.json'),
    JSON.stringify({ [SERVER_NODE_ID]: { host: opts.homeUrl, access_token: opts.token } }),
  );
  const port = await freePort();
  const child: ChildProcess = spawn(
    process.execPath,
    [
      binOf('node-red', 'node-red', 'node-red'),
      '--userDir',
      userDir,
      '--port',
      String(port),
      '--settings',
      path.join(userDir, 'settings.js'),
    ],
    {
      cwd: userDir,
      env: { PATH: process.env.PATH ?? '', HOME: userDir, TZ: 'UTC', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const collected: Collected[] = [];
  const taken = new Map<string, number>();
  child.on('message', (m: Collected) => collected.push(m));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const admin = `http://127.0.0.1:${port}`;

  await withDeadline(
    Promise.race([
      waitFor(() => output.includes('Started flows'), { timeoutMs: 60_000 }),
      exited.then(() => Promise.reject(new Error('Node-RED exited'))),
    ]),
    60_000,
    'Node-RED to start its flows',
  ).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${output}`);
  });

  return {
    collected,
    log: () => output,
    async next(tag, timeoutMs = 20_000) {
      const from = taken.get(tag) ?? 0;
      const found = await waitFor(() => collected.filter((c) => c.tag === tag)[from], { timeoutMs }).catch(() => {
        throw new Error(
          `no output under ${tag} within ${timeoutMs} ms; collected: ${JSON.stringify(collected.map((c) => c.tag))}\n--- Node-RED log (tail) ---\n${output.slice(-6000)}`,
        );
      });
      taken.set(tag, from + 1);
      return found.msg;
    },
    async inject(nodeId) {
      const res = await fetch(`${admin}/inject/${nodeId}`, { method: 'POST' });
      if (res.status !== 200) throw new Error(`inject ${nodeId}: ${res.status} ${await res.text()}`);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        await withDeadline(exited, 10_000, 'Node-RED to stop').catch(() => child.kill('SIGKILL'));
      }
      rmSync(userDir, { recursive: true, force: true });
    },
  };
}
