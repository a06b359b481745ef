// Kill the server with SIGKILL in the middle of a burst of state writes and service calls:
// every write that got a 2xx must be there after a restart on the same storage.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { spawnHamlet, type HamletProcess } from '../helpers/process.js';
import { cliArgs } from '../helpers/cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cleanups: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

it('keeps every acknowledged state write across kill -9', async () => {
  const storage = await testStorage();
  cleanups.push(() => storage.drop());
  const env = testEnv(storage, ['home'], { HAMLET_LOG_LEVEL: 'warn' });
  const keyOut = spawnSync(process.execPath, cliArgs('keys', 'create', 'home'), {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  const token = /(hamlet_home_\S+)/.exec(keyOut.stdout.toString())?.[1];
  expect(token, keyOut.stderr.toString()).toBeDefined();
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

  let proc: HamletProcess = await spawnHamlet(env);
  cleanups.push(() => proc.kill());
  let api = proc.urls['home api'];

  const acked = new Map<string, string>();
  let next = 0;
  let killed = false;
  const worker = async () => {
    while (!killed && next < 5000) {
      const n = next++;
      const id = `sensor.crash_${n % 300}`;
      try {
        const r = await fetch(`${api}/api/states/${id}`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ state: String(n) }),
        });
        if (r.status === 200 || r.status === 201) acked.set(id, String(n));
      } catch {
        /* cut by the kill: not acknowledged */
      }
      if (acked.size >= 300 && next > 600 && !killed) {
        killed = true;
        await proc.kill('SIGKILL');
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  expect(proc.child.signalCode).toBe('SIGKILL');

  proc = await spawnHamlet(env);
  api = proc.urls['home api']!;
  const states = (await (await fetch(`${api}/api/states`, { headers })).json()) as Array<{
    entity_id: string;
    state: string;
  }>;
  const byId = new Map(states.map((s) => [s.entity_id, s.state]));
  // Each entity shows its last acknowledged value, or a later one whose answer the kill cut off.
  for (const [id, value] of acked) expect(Number(byId.get(id)), id).toBeGreaterThanOrEqual(Number(value));
  await proc.kill('SIGTERM');
}, 60_000);
