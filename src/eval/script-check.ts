// The escape hatch: a check written in JavaScript by the evaluator. It runs in a child process
// of its own (never in the server), reads the episode as JSON on stdin (the services' URLs, the
// keys the world handed out, the row and semantic diff, the episode's folder) and prints its
// verdict as the last line of its output: {"pass": true|false, "message": "…"}. It has 30 s.
import { spawn } from 'node:child_process';

export interface ScriptInput {
  task: string;
  episodeDir: string;
  urls: Record<string, Record<string, string>>;
  keys: unknown;
  changes: unknown;
}

const SCRIPT_TIMEOUT_MS = 30_000;
/** What is read of the script's output (its last line is the verdict). */
const MAX_OUTPUT = 1024 * 1024;

export function runScriptCheck(script: string, input: ScriptInput): Promise<{ pass: boolean; message: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_TIMEOUT_MS);
    child.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-MAX_OUTPUT)));
    child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4096)));
    // A script that exits without reading all its input closes the pipe early: that is its business.
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(input));
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ pass: false, message: `the script ${script} did not start: ${e.message}` });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const last = out.trim().split('\n').pop() ?? '';
      try {
        const verdict = JSON.parse(last) as { pass?: unknown; message?: unknown };
        if (typeof verdict.pass !== 'boolean') throw new Error('no boolean `pass`');
        resolve({
          pass: verdict.pass,
          message:
            typeof verdict.message === 'string' ? verdict.message.slice(0, 2000) : verdict.pass ? 'passed' : 'failed',
        });
      } catch {
        const why =
          signal === 'SIGKILL'
            ? `took longer than ${SCRIPT_TIMEOUT_MS / 1000} s`
            : `exited with ${code ?? signal} without printing {"pass": …} as its last line`;
        resolve({
          pass: false,
          message: `the script ${why}${err ? `: ${err.trim().split('\n').slice(-3).join(' ')}` : ''}`,
        });
      }
    });
  });
}
