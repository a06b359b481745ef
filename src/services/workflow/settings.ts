// The workflow service's settings (WORKFLOW_*, and n8n's own names where it has them), read
// with the platform's kit.
import os from 'node:os';
import type { SettingsKit } from '../../platform/settings.js';
import type { SandboxLimits } from './expressions/api.js';
import type { ExecutionLimitSettings } from './engine/limits.js';

export interface WorkflowSettings {
  port: number;
  /** Environment variables expressions may read as $env (none by default, as n8n 2.x). */
  envAllow: string[];
  /** Their values, read once at start. */
  envForExpressions: Record<string, string>;
  /** HAMLET_<SERVICE>_API_KEY variables: the keys Hamlet nodes use when a node names none. */
  hamletApiKeys: Record<string, string>;
  sandbox: SandboxLimits;
  /** Executions older than this are pruned (ms); 0 keeps them. */
  pruneMaxAgeMs: number;
  /** At most this many executions are kept; 0 means no limit. */
  pruneMaxCount: number;
  /** Base URL used in webhookUrl and resume URLs; the listen address when unset. */
  publicUrl?: string;
  /**
   * The one folder Read/Write Files from Disk may use (WORKFLOW_FILES_DIR, or n8n's
   * N8N_RESTRICT_FILE_ACCESS_TO); unset, the node is off.
   */
  filesDir?: string;
  /** Files of at least this many bytes are kept in the data directory, not in stored executions; 0: never. */
  binarySpillBytes: number;
  /** Executions run at once by this process's job worker. */
  concurrency: number;
  /** Default time zone for schedules and $now. */
  timezone: string;
  /** Bounds of one execution: time (as n8n's EXECUTIONS_TIMEOUT / _MAX) and stored run data. */
  execution: ExecutionLimitSettings;
  /** The instance owner the public API shows (GET /users, the personal project). */
  owner: { email: string; firstName: string; lastName: string };
  /**
   * Key that encrypts credentials (WORKFLOW_ENCRYPTION_KEY, or n8n's N8N_ENCRYPTION_KEY);
   * unset, one is generated into the data directory on first start.
   */
  encryptionKey?: string;
  /** The most bytes all data tables' rows may take (n8n's N8N_DATA_TABLES_MAX_SIZE_BYTES, 50 MB). */
  dataTablesMaxBytes: number;
}

/** n8n's EXECUTIONS_TIMEOUT counts seconds and takes -1 for "no limit". */
function seconds(kit: SettingsKit, name: string, fallback: number, allowNone: boolean): number {
  return kit.parsed(
    name,
    fallback,
    (raw) => {
      const n = Number(raw);
      return /^-?\d+$/.test(raw) && (allowNone ? n >= -1 : n >= 1) && n <= 31_536_000 ? n : undefined;
    },
    `must be a whole number of seconds${allowNone ? ' (-1 for no limit)' : ''}, at most 31536000`,
  );
}

/** The limits of expressions and Code runs (see the sandbox section of docs/workflow.md). */
function sandboxLimits(kit: SettingsKit): SandboxLimits {
  // Worker threads that run expressions and Code (user code never runs on the event loop): this
  // many are kept, and while all are busy one more is kept ready, up to the most.
  const workers = kit.count('WORKFLOW_SANDBOX_WORKERS', os.availableParallelism(), 1, 256);
  return {
    timeoutMs: kit.count('WORKFLOW_SANDBOX_TIMEOUT_MS', 5000, 10, 600_000),
    memoryBytes: kit.count('WORKFLOW_SANDBOX_MEMORY_MB', 64, 8, 4096) * 1024 * 1024,
    workers,
    maxWorkers: kit.count('WORKFLOW_SANDBOX_MAX_WORKERS', Math.min(256, workers + 1), workers, 256),
  };
}

export function readWorkflowSettings(kit: SettingsKit): WorkflowSettings {
  const envAllow = kit.list('WORKFLOW_ENV_ALLOW');
  const envForExpressions = Object.fromEntries(
    envAllow.filter((k) => kit.env[k] !== undefined).map((k) => [k, kit.env[k]!]),
  );
  const hamletApiKeys = Object.fromEntries(
    Object.entries(kit.env).filter(([k, v]) => /^HAMLET_[A-Z]+_API_KEY$/.test(k) && v) as Array<[string, string]>,
  );
  return {
    port: kit.port('WORKFLOW_PORT', 5678, 'workflow-port'),
    envAllow,
    envForExpressions,
    hamletApiKeys,
    sandbox: sandboxLimits(kit),
    pruneMaxAgeMs: kit.duration('WORKFLOW_EXECUTIONS_MAX_AGE', 14 * 86_400_000, 0),
    pruneMaxCount: kit.count('WORKFLOW_EXECUTIONS_MAX_COUNT', 10_000, 0, 100_000_000),
    publicUrl: kit.baseUrl('WORKFLOW_PUBLIC_URL'),
    concurrency: kit.count('WORKFLOW_CONCURRENCY', 4, 1, 256),
    filesDir: kit.raw('WORKFLOW_FILES_DIR') || kit.raw('N8N_RESTRICT_FILE_ACCESS_TO') || undefined,
    binarySpillBytes: kit.count('WORKFLOW_BINARY_SPILL_BYTES', 1024 * 1024, 0, 2 ** 31),
    timezone: kit.timezone('WORKFLOW_TIMEZONE', 'UTC', 'GENERIC_TIMEZONE'),
    execution: {
      timeoutS: seconds(kit, 'WORKFLOW_EXECUTION_TIMEOUT', -1, true),
      maxTimeoutS: seconds(kit, 'WORKFLOW_EXECUTION_TIMEOUT_MAX', 3600, false),
      maxRunDataBytes: kit.count('WORKFLOW_MAX_RUN_DATA_MB', 64, 1, 4096) * 1024 * 1024,
    },
    owner: {
      email: kit.text('WORKFLOW_OWNER_EMAIL', 'owner@hamlet.local'),
      firstName: kit.text('WORKFLOW_OWNER_FIRST_NAME', 'Hamlet'),
      lastName: kit.text('WORKFLOW_OWNER_LAST_NAME', 'Owner'),
    },
    encryptionKey: kit.raw('WORKFLOW_ENCRYPTION_KEY') ?? kit.raw('N8N_ENCRYPTION_KEY'),
    dataTablesMaxBytes: kit.count(
      'WORKFLOW_DATA_TABLES_MAX_BYTES',
      kit.count('N8N_DATA_TABLES_MAX_SIZE_BYTES', 50 * 1024 * 1024, 1024, 2 ** 40),
      1024,
      2 ** 40,
    ),
  };
}
