// Scenario files cannot read the server's files (issue 27, finding 6). A scenario's workflow
// `file` is read only from inside a folder: the scenario's own folder from the command line,
// HAMLET_SCENARIO_DIR through the admin API (without it the admin API takes inline definitions
// only). `..`, absolute paths and symlinks leading out are refused before anything is seeded;
// a file that is missing or not JSON is a 400 naming it, and its content goes nowhere (not
// the answer, not the log).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { parseScenario, ScenarioError } from '../../src/console/world/scenario.js';
import { seedScenario } from '../../src/console/world/seed.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';

const WORKFLOW = {
  name: 'Scenario file',
  nodes: [{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} }],
  connections: {},
  settings: {},
};
const SECRET = 'TOP-SECRET-CONTENT-4242';

interface Running {
  hamlet: Hamlet;
  logs: string[];
  seed(body: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

async function start(env: Record<string, string>): Promise<Running> {
  const storage = await testStorage();
  const logs: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      logs.push(String(chunk));
      done();
    },
  });
  const config = loadConfig(testEnv(storage, ['workflow'], { HAMLET_CONSOLE: 'on', ...env }));
  const hamlet = await startHamlet(config, { logger: createLogger({ level: 'info', pretty: false, destination }) });
  const key = (await hamlet.platform.keys.create('admin')).key;
  return {
    hamlet,
    logs,
    seed: async (body) => {
      const res = await fetch(`${hamlet.console!.urls.web}/admin/api/world/seed`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: await res.json() };
    },
    stop: async () => {
      await hamlet.stop();
      await storage.drop();
    },
  };
}

// Made when the file loads: the test names below list these paths.
const root = mkdtempSync(path.join(os.tmpdir(), 'hamlet-scenario-files-'));
const folder = path.join(root, 'scenarios');
const outside = path.join(root, 'outside.json');

beforeAll(() => {
  mkdirSync(folder);
  writeFileSync(outside, JSON.stringify({ ...WORKFLOW, name: SECRET }));
  writeFileSync(path.join(folder, 'ok.json'), JSON.stringify(WORKFLOW));
  writeFileSync(path.join(folder, 'notes.txt'), `${SECRET}\nnot json at all`);
  symlinkSync(outside, path.join(folder, 'link.json'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const refusedPaths = () => [
  '/etc/passwd',
  '/proc/self/environ',
  '../outside.json',
  '../../../../../../etc/passwd',
  outside,
  'link.json',
];

describe('the admin API without HAMLET_SCENARIO_DIR', () => {
  let r: Running;
  beforeAll(async () => (r = await start({})), 60_000);
  afterAll(async () => r?.stop());

  it.each(['/etc/passwd', '/proc/self/environ', 'workflow-encryption.key', '../echo-workflow.json'])(
    'refuses a workflow file (%s): inline definitions only, a 400 naming the setting',
    async (file) => {
      const res = await r.seed({ workflows: [{ file }] });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('invalid_scenario');
      expect(res.body.message).toContain(file);
      expect(res.body.message).toMatch(/HAMLET_SCENARIO_DIR/);
      expect(res.body.message).not.toMatch(/root:|PATH=/);
    },
  );

  it('still seeds inline definitions', async () => {
    const res = await r.seed({ workflows: [{ definition: WORKFLOW }] });
    expect(res.status).toBe(200);
  });
});

describe('the admin API with HAMLET_SCENARIO_DIR', () => {
  let r: Running;
  beforeAll(async () => (r = await start({ HAMLET_SCENARIO_DIR: folder })), 60_000);
  afterAll(async () => r?.stop());

  it('reads a workflow file inside the folder', async () => {
    const res = await r.seed({ workflows: [{ file: 'ok.json' }] });
    expect(res.status).toBe(200);
  });

  it.each(refusedPaths())(
    'refuses %s (outside the folder, symlinks resolved) before anything is seeded',
    async (file) => {
      const before = await r.hamlet.platform.db.kysely.selectFrom('workflow_workflows').select('id').execute();
      const res = await r.seed({ workflows: [{ definition: { ...WORKFLOW, name: 'first step' } }, { file }] });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(file);
      expect(res.body.message).toMatch(/outside/);
      expect(res.body.message).not.toContain(SECRET);
      expect(await r.hamlet.platform.db.kysely.selectFrom('workflow_workflows').select('id').execute()).toEqual(before);
    },
  );

  it('a file that is not JSON, or missing, is a 400 naming it; its content is in neither the answer nor the log', async () => {
    for (const file of ['notes.txt', 'missing.json']) {
      const res = await r.seed({ workflows: [{ file }] });
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(file);
      expect(res.body.message).not.toContain(SECRET);
    }
    expect(r.logs.join('')).not.toContain(SECRET);
    expect(r.logs.join('')).not.toContain('not json at all');
  });
});

describe('scenarios from the command line', () => {
  let r: Running;
  beforeAll(async () => (r = await start({})), 60_000);
  afterAll(async () => r?.stop());

  const seedFrom = (file: string) =>
    seedScenario(
      r.hamlet.platform,
      r.hamlet.services,
      parseScenario(JSON.stringify({ workflows: [{ file }] })),
      folder,
    );

  it('read workflow files next to the scenario', async () => {
    await expect(seedFrom('ok.json')).resolves.toBeTruthy();
  });

  it.each(refusedPaths())('refuse %s, outside the scenario’s folder', async (file) => {
    await expect(seedFrom(file)).rejects.toThrow(ScenarioError);
    await expect(seedFrom(file)).rejects.toThrow(/outside/);
  });

  it('refuse a file that is not JSON with its name, not its content', async () => {
    const err = await seedFrom('notes.txt').catch((e) => e);
    expect(err).toBeInstanceOf(ScenarioError);
    expect(err.message).toContain('notes.txt');
    expect(err.message).not.toContain(SECRET);
  });
});
