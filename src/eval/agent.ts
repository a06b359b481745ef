// Running the agent under evaluation: the evaluator's command, in a shell, in a process group
// of its own, with the episode handed over in environment variables and a JSON file. At the
// time limit the whole group is stopped (SIGTERM, then SIGKILL after a grace), so an agent that
// started children of its own leaves none behind.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';

export interface AgentRun {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  durationMs: number;
}

const KILL_GRACE_MS = 2000;

function stopGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // Gone already.
  }
}

/** Runs `command` until it exits or `timeLimitMs` passes; its output goes to agent.stdout/agent.stderr in `dir`. */
export function runAgent(
  command: string,
  env: Record<string, string>,
  dir: string,
  timeLimitMs: number,
  onStart?: () => void,
): Promise<AgentRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(command, {
      shell: true,
      detached: true,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(createWriteStream(path.join(dir, 'agent.stdout')));
    child.stderr.pipe(createWriteStream(path.join(dir, 'agent.stderr')));
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    const limit = setTimeout(() => {
      timedOut = true;
      stopGroup(child.pid!, 'SIGTERM');
      killer = setTimeout(() => stopGroup(child.pid!, 'SIGKILL'), KILL_GRACE_MS);
    }, timeLimitMs);
    onStart?.();
    const done = (exitCode: number | null, signal: string | null) => {
      clearTimeout(limit);
      clearTimeout(killer);
      // Children it left behind in its group go with it.
      if (child.pid) stopGroup(child.pid, 'SIGKILL');
      resolve({ exitCode, signal, timedOut, durationMs: performance.now() - started });
    };
    child.on('error', () => done(null, 'spawn-failed'));
    child.on('exit', (code, signal) => done(code, signal));
  });
}
