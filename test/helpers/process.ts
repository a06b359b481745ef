// Runs Hamlet as a real child process (for crash tests: SIGKILL, then restart on the same storage).
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ANY_FREE_PORT } from './ports.js';
import { withDeadline } from './wait.js';
import { cliArgs } from './cli.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface HamletProcess {
  child: ChildProcess;
  /** `urls['blog api']` etc., parsed from the start banner. */
  urls: Record<string, string>;
  kill(signal?: NodeJS.Signals): Promise<void>;
  output(): string;
}

export async function spawnHamlet(env: Record<string, string>, timeoutMs = 30_000): Promise<HamletProcess> {
  // HAMLET_CPU_PROF=<dir> writes a V8 CPU profile of the server there when it stops (to see where
  // a benchmark's time goes; `--cpu-prof` cannot travel in NODE_OPTIONS).
  const profile = process.env.HAMLET_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HAMLET_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, ...cliArgs('start')], {
    cwd: ROOT,
    // Every port free unless the caller names one, so files running side by side never collide.
    env: { ...process.env, ...ANY_FREE_PORT, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // No orphan when the test process ends before the server (a test that timed out while it started).
  const orphanGuard = () => void child.kill('SIGKILL');
  process.once('exit', orphanGuard);
  child.once('exit', () => process.removeListener('exit', orphanGuard));
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const services = (env.HAMLET_SERVICES ?? '').split(',').filter(Boolean);
  const urls: Record<string, string> = {};
  const started = new Promise<void>((resolve, reject) => {
    const check = () => {
      for (const line of out.split('\n')) {
        const m = /^(\w+)\s+(\w+)\s+(\S+)$/.exec(line.trim());
        if (m) urls[`${m[1]} ${m[2]}`] = m[3]!;
      }
      if (services.every((s) => Object.keys(urls).some((k) => k.startsWith(s + ' ')))) resolve();
    };
    child.stdout.on('data', check);
    child.once('exit', (code) => reject(new Error(`hamlet exited with ${code}:\n${out}\n${err}`)));
  });
  await withDeadline(started, timeoutMs, 'hamlet to print its URLs').catch(async (e: Error) => {
    // A start that failed or hung leaves no process behind.
    await stopChild(child, 'SIGKILL');
    throw new Error(`${e.message}:\n${out}\n${err}`);
  });
  return {
    child,
    urls,
    output: () => out + err,
    kill: (signal = 'SIGKILL') => stopChild(child, signal),
  };
}

/** Sends `signal` and resolves once the child has exited (at once if it already has). */
function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  return new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
