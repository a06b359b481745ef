// Benchmark helpers: start the bare Fastify baseline and Hamlet as child processes (so the
// load generator does not share their event loop), drive them with autocannon, and print
// a table of requests/s next to the baseline measured in the same run.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnHamlet, type HamletProcess } from '../test/helpers/process.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Row {
  name: string;
  rps: number;
  p99: number;
  /** Target as a fraction of the baseline (e.g. 0.25), or an absolute req/s target. */
  target?: { ratio?: number; rps?: number };
  note?: string;
  /** The ceiling this row is compared with, when it is not the run's autocannon baseline (e.g. wrk's). */
  baseline?: number;
}

export interface BenchContext {
  baselineRps: number;
  /** The bare Fastify handler, for measuring it again with another load generator. */
  baselineUrl: string;
  row(
    name: string,
    result: { rps: number; p99: number },
    target?: Row['target'],
    note?: string,
    baseline?: number,
  ): void;
}

export async function startBaseline(): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/baseline.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      const m = /(http:\/\/\S+)/.exec(d.toString());
      if (m) resolve(m[1]);
    });
  });
  return { url, stop: () => child.kill('SIGTERM') };
}

export interface LoadOptions {
  url: string;
  connections?: number;
  duration?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Varying requests, e.g. a different body per request. */
  requests?: autocannon.Request[];
  /** Stop after this many requests instead of after `duration`. */
  amount?: number;
}

export async function load(opts: LoadOptions): Promise<{ rps: number; p99: number; errors: number; non2xx: number }> {
  const result = await autocannon({
    url: opts.url,
    connections: opts.connections ?? 10,
    duration: opts.duration ?? Number(process.env.BENCH_SECONDS ?? 5),
    method: opts.method ?? 'GET',
    headers: opts.headers,
    body: opts.body,
    requests: opts.requests,
    ...(opts.amount ? { amount: opts.amount } : {}),
  });
  return { rps: result.requests.average, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

export async function startHamletForBench(
  services: string[],
  env: Record<string, string> = {},
): Promise<HamletProcess & { dataDir: string; stopAndClean(): Promise<void> }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-bench-'));
  const proc = await spawnHamlet(
    {
      HAMLET_DATA_DIR: dataDir,
      HAMLET_SERVICES: services.join(','),
      HAMLET_RATE_LIMITS: 'off',
      HAMLET_LOG_LEVEL: 'warn',
      BLOG_PORT: '0',
      MAIL_PORT: '0',
      SMTP_PORT: '0',
      MAIL_SUBMISSION_PORT: '0',
      COMMUNITY_PORT: '0',
      HOME_PORT: '0',
      WORKFLOW_PORT: '0',
      ...env,
    },
    120_000,
  );
  return Object.assign(proc, {
    dataDir,
    async stopAndClean() {
      await proc.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * The same load with wrk (Debian's package), when it is installed. autocannon parses responses
 * with a JavaScript HTTP parser that slows down about fourfold on bodies with non-ASCII text
 * (measured: a 32 KB UTF-8 body at 9.9k req/s against 40.7k for ASCII, where wrk sees 54k and
 * 52k), so for such bodies wrk measures the server rather than the load generator.
 */
export async function loadWithWrk(opts: {
  url: string;
  headers?: Record<string, string>;
  connections?: number;
  duration?: number;
}): Promise<{ rps: number; p99: number } | undefined> {
  const { execFile } = await import('node:child_process');
  const args = [
    '-t1',
    `-c${opts.connections ?? 10}`,
    `-d${opts.duration ?? Number(process.env.BENCH_SECONDS ?? 5)}s`,
    '--latency',
  ];
  for (const [k, v] of Object.entries(opts.headers ?? {})) args.push('-H', `${k}: ${v}`);
  args.push(opts.url);
  const out = await new Promise<string | undefined>((resolve) =>
    execFile('wrk', args, (err, stdout) => resolve(err ? undefined : stdout)),
  );
  if (!out) return undefined;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const m = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = m ? Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1) : NaN;
  return Number.isFinite(rps) ? { rps, p99: Math.round(p99 * 10) / 10 } : undefined;
}

export function formatTable(baselineRps: number, rows: Row[]): string {
  const lines = ['| scenario | req/s | p99 ms | vs bare Fastify | target | met |', '|---|---:|---:|---:|---|---|'];
  lines.push(`| bare Fastify handler (same run) | ${Math.round(baselineRps)} | | 100% | | |`);
  for (const r of rows) {
    const ratio = r.rps / (r.baseline ?? baselineRps);
    let target = '';
    let met = '';
    if (r.target?.ratio) {
      target = `≥ ${Math.round(r.target.ratio * 100)}%`;
      met = ratio >= r.target.ratio ? 'yes' : 'no';
    } else if (r.target?.rps) {
      target = `≥ ${r.target.rps}/s`;
      met = r.rps >= r.target.rps ? 'yes' : 'no';
    }
    lines.push(
      `| ${r.name}${r.note ? ` (${r.note})` : ''} | ${Math.round(r.rps)} | ${r.p99} | ${(ratio * 100).toFixed(0)}% | ${target} | ${met} |`,
    );
  }
  return lines.join('\n');
}
