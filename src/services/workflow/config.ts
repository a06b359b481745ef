// The workflow service's settings, read from the environment and validated at start.
import os from 'node:os';
import { ConfigError, parseDuration } from '../../config.js';
import type { SandboxLimits } from './expressions/api.js';
import type { ExecutionLimitSettings } from './engine/limits.js';

export interface WorkflowConfig {
  /** Environment variables expressions may read as $env (none by default, as n8n 2.x). */
  envAllow: string[];
  sandbox: SandboxLimits;
  /** Executions older than this are pruned (ms); 0 keeps them. */
  pruneMaxAgeMs: number;
  /** At most this many executions are kept; 0 means no limit. */
  pruneMaxCount: number;
  /** Base URL used in webhookUrl and resume URLs; the listen address when unset. */
  publicUrl?: string;
  /** Executions run at once by this process's job worker. */
  concurrency: number;
  /** Default time zone for schedules and $now. */
  timezone: string;
  /** Bounds of one execution: time (as n8n's EXECUTIONS_TIMEOUT / _MAX) and stored run data. */
  execution: ExecutionLimitSettings;
}

export function loadWorkflowConfig(env: Record<string, string | undefined>): WorkflowConfig {
  const problems: string[] = [];
  const get = (name: string) => (env[name] === undefined || env[name] === '' ? undefined : env[name]);
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name}=${raw}: must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };
  // n8n's EXECUTIONS_TIMEOUT counts seconds and takes -1 for "no limit".
  const seconds = (name: string, fallback: number, allowNone: boolean): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || (allowNone ? n < -1 : n < 1) || n > 31_536_000) {
      problems.push(`${name}=${raw}: must be a whole number of seconds${allowNone ? ' (-1 for no limit)' : ''}, at most 31536000`);
      return fallback;
    }
    return n;
  };
  const duration = (name: string, fallback: string): number => {
    const raw = get(name) ?? fallback;
    const ms = parseDuration(raw);
    if (ms === undefined) {
      problems.push(`${name}=${raw}: expected a duration such as 500ms, 30s, 15m, 1h or 14d (0 disables)`);
      return parseDuration(fallback)!;
    }
    return ms;
  };
  const timezone = get('WORKFLOW_TIMEZONE') ?? get('GENERIC_TIMEZONE') ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    problems.push(`WORKFLOW_TIMEZONE=${timezone}: not an IANA time zone (e.g. UTC, Europe/Berlin)`);
  }
  let publicUrl = get('WORKFLOW_PUBLIC_URL');
  if (publicUrl !== undefined) {
    try {
      const u = new URL(publicUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      publicUrl = publicUrl.replace(/\/$/, '');
    } catch {
      problems.push(`WORKFLOW_PUBLIC_URL=${publicUrl}: expected an http or https URL`);
      publicUrl = undefined;
    }
  }
  const config: WorkflowConfig = {
    envAllow: (get('WORKFLOW_ENV_ALLOW') ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    sandbox: {
      timeoutMs: int('WORKFLOW_SANDBOX_TIMEOUT_MS', 5000, 10, 600_000),
      memoryBytes: int('WORKFLOW_SANDBOX_MEMORY_MB', 64, 8, 4096) * 1024 * 1024,
      // Worker threads that run expressions and Code (user code never runs on the event loop).
      workers: int('WORKFLOW_SANDBOX_WORKERS', os.availableParallelism(), 1, 256),
    },
    pruneMaxAgeMs: duration('WORKFLOW_EXECUTIONS_MAX_AGE', '14d'),
    pruneMaxCount: int('WORKFLOW_EXECUTIONS_MAX_COUNT', 10_000, 0, 100_000_000),
    publicUrl,
    concurrency: int('WORKFLOW_CONCURRENCY', 4, 1, 256),
    timezone,
    execution: {
      timeoutS: seconds('WORKFLOW_EXECUTION_TIMEOUT', -1, true),
      maxTimeoutS: seconds('WORKFLOW_EXECUTION_TIMEOUT_MAX', 3600, false),
      maxRunDataBytes: int('WORKFLOW_MAX_RUN_DATA_MB', 64, 1, 4096) * 1024 * 1024,
    },
  };
  if (problems.length) throw new ConfigError(problems);
  return config;
}
