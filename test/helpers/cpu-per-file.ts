// Setup file of vitest.cpu.config.ts (`npx vitest run --config vitest.cpu.config.ts`): appends,
// per test file, the CPU seconds its worker used while the file's tests ran, the CPU of the
// child processes it started and waited for (servers, the CLI, shell scripts), and the wall
// seconds, to TEST_CPU_OUT (default .tmp/test-cpu.txt). Read from /proc, so Linux only. With
// vitest's report it tells a file that computes from one that waits (issue 28: two workers
// left the cores ~60 % idle, because most heavy files wait).
import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';

const OUT = process.env.TEST_CPU_OUT ?? '.tmp/test-cpu.txt';
const CLOCK_TICKS = 100;

/** This process's user and system time, and its waited-for children's, in seconds. */
function cpuSeconds(): { own: number; children: number } {
  // After the command name's closing parenthesis: state, then fields 4…; utime is the 14th field.
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((i) => Number(fields[i]) / CLOCK_TICKS);
  return { own: utime + stime, children: cutime + cstime };
}

let start = cpuSeconds();
let startedAt = 0;
beforeAll(() => {
  start = cpuSeconds();
  startedAt = performance.now();
});
afterAll(() => {
  const end = cpuSeconds();
  const file = path.relative(process.cwd(), expect.getState().testPath ?? '?');
  mkdirSync(path.dirname(OUT), { recursive: true });
  appendFileSync(
    OUT,
    `${(end.own - start.own).toFixed(1)} ${(end.children - start.children).toFixed(1)} ${((performance.now() - startedAt) / 1000).toFixed(1)} ${file}\n`,
  );
});
