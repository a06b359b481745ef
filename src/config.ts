// The platform's configuration, read from flags and the environment and validated at start,
// and cut into the slices each platform part is built with (server.ts): the platform and the
// services never see HamletConfig, only their slice (PlatformSettings, HttpSettings, ...), whose
// types live with the part in platform/. Each service reads its own variables in its
// `settings.ts` with the same kit (platform/settings.ts), and `configure()` reads them all with
// one kit, so every bad value of the platform and of every selected service is reported at once.
import { readEvalPageSettings, type EvalPageSettings } from './console/evals/settings.js';
import { readWorldSettings, type WorldSettings } from './console/world/settings.js';
import { parseTrustProxy, type TrustProxySetting } from './platform/client-address.js';
import { parseAllowedOrigins } from './platform/mcp-origins.js';
import { HTTP_DEFAULTS, type HttpSettings } from './platform/http-settings.js';
import type { RateLimitSettings } from './platform/ratelimit.js';
import { parseRateLimit, SettingsKit, type Env, type PortSetting, type RateLimitSetting } from './platform/settings.js';
import type { ConfiguredService, PlatformSettings } from './platform/service.js';
import type { TraceSettings } from './platform/trace.js';
import type { WsLimits } from './platform/ws-budget.js';
import { loadService, registeredServices, type ServiceName } from './services/registry.js';

export interface HamletConfig {
  dataDir: string;
  host: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl?: string;
  redisUrl?: string;
  services: ServiceName[];
  logLevel: string;
  prettyLogs: boolean;
  smtpRelay?: { host: string; port: number; secure: boolean; user?: string; pass?: string };
  rateLimits: RateLimitSettings;
  /** The HTTP edge every service shares (see platform/http.ts). */
  http: HttpSettings;
  /** Fair shares of the live streams (WebSockets and server-sent events) of all services (platform/ws-budget.ts). */
  websockets: WsLimits;
  /** HAMLET_ALLOW_INTERNAL_REQUESTS: outbound requests (webhooks, HTTP nodes) may reach internal addresses. */
  allowInternalRequests: boolean;
  /** Queue mode (REDIS_URL): whether this process runs jobs (HAMLET_WORKERS=off: only enqueue) and the Redis key prefix. */
  queue: { workers: boolean; prefix: string };
  /** HAMLET_<SERVICE>_URL: where another process reaches a service (behind a proxy, or on another host). */
  serviceUrls: Record<string, string>;
  /** The web console and admin API (src/console): HAMLET_CONSOLE=off leaves it out; HAMLET_CONSOLE_PORT; HAMLET_CONSOLE_SESSION_TTL, how long a login lasts. */
  console: { enabled: boolean; port: number; sessionTtlMs: number };
  /** The MCP endpoints (console /mcp, home /api/mcp): HAMLET_MCP_ALLOWED_ORIGINS, origins or host names browsers may call them from besides loopback and the public host (platform/mcp-http.ts). */
  mcp: { allowedOrigins: string[] };
  /** The trace of what agents did (platform/trace.ts): HAMLET_TRACE=off, HAMLET_TRACE_BODIES=on, HAMLET_TRACE_RETENTION, HAMLET_TRACE_MAX_ENTRIES. */
  trace: TraceSettings;
  /** HAMLET_SHUTDOWN_DRAIN: how long a stopping process answers readiness 503 while still serving, so a load balancer moves away first. */
  shutdownDrainMs: number;
  /** Worlds (src/console/world): snapshot file limits, diff pages, the admin API's scenario folder (HAMLET_WORLD_*, HAMLET_SCENARIO_DIR). */
  world: WorldSettings;
  /** The console's evaluation pages (src/console/evals): HAMLET_EVAL_RUNS, the folder of runs they show. */
  evals: EvalPageSettings;
  /** The inputs every service reads its own settings from (platform/settings.ts); never written after loading. */
  source: { readonly env: Env; readonly flags: Readonly<Record<string, string>> };
}

/** The platform's settings; the kit collects the problems. */
function readPlatformSettings(kit: SettingsKit): HamletConfig {
  const known = registeredServices();
  const wanted = kit.list('HAMLET_SERVICES', known, 'services');
  const unknown = wanted.filter((s) => !known.includes(s));
  if (unknown.length) kit.problem(`--services: unknown service ${unknown.join(', ')} (known: ${known.join(', ')})`);
  if (wanted.length === 0) kit.problem('--services: name at least one service');
  const services = known.filter((s) => wanted.includes(s));

  const db = kit.url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redis = kit.url('REDIS_URL', ['redis:', 'rediss:']);
  const relay = kit.url('HAMLET_SMTP_RELAY', ['smtp:', 'smtps:']);
  const smtpRelay = relay
    ? {
        host: relay.hostname,
        port: relay.port ? Number(relay.port) : relay.protocol === 'smtps:' ? 465 : 25,
        secure: relay.protocol === 'smtps:',
        user: relay.username ? decodeURIComponent(relay.username) : undefined,
        pass: relay.password ? decodeURIComponent(relay.password) : undefined,
      }
    : undefined;

  const rateLimitsOn = kit.oneOf('HAMLET_RATE_LIMITS', ['on', 'off'], 'on') === 'on';
  const overrides: Record<string, RateLimitSetting> = {};
  const serviceUrls: Record<string, string> = {};
  for (const [name, value] of Object.entries(kit.env)) {
    if (value === undefined || value === '') continue;
    const url = /^HAMLET_([A-Z]+)_URL$/.exec(name);
    if (url) {
      const base = kit.baseUrl(name);
      if (base) serviceUrls[url[1].toLowerCase()] = base;
    }
    if (!name.startsWith('HAMLET_RATE_') || name === 'HAMLET_RATE_LIMITS') continue;
    const parsed = parseRateLimit(value);
    if (!parsed || parsed.max < 1) kit.problem(`${name}=${value}: expected <max>/<window>, e.g. 100/1h or 20/15m`);
    else overrides[name.slice('HAMLET_RATE_'.length).toLowerCase()] = parsed;
  }

  return {
    dataDir: kit.text('HAMLET_DATA_DIR', './data', 'data-dir'),
    host: kit.text('HAMLET_HOST', '127.0.0.1', 'host'),
    databaseUrl: db?.toString(),
    redisUrl: redis?.toString(),
    services,
    logLevel: kit.oneOf(
      'HAMLET_LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
      'log-level',
    ),
    prettyLogs: kit.raw('HAMLET_PRETTY_LOGS', 'pretty') === '1' || kit.raw('HAMLET_PRETTY_LOGS', 'pretty') === 'true',
    smtpRelay,
    rateLimits: { enabled: rateLimitsOn, overrides },
    http: httpSettings(kit),
    websockets: {
      maxPerKey: kit.count('HAMLET_WS_MAX_PER_KEY', 50, 1),
      maxPerAddress: kit.count('HAMLET_WS_MAX_PER_ADDRESS', 200, 1),
      memoryBudgetBytes: kit.count('HAMLET_WS_MEMORY_BUDGET', 64 * 1024 * 1024, 1024 * 1024),
    },
    allowInternalRequests: kit.flag('HAMLET_ALLOW_INTERNAL_REQUESTS', false),
    queue: {
      workers: kit.oneOf('HAMLET_WORKERS', ['on', 'off'], 'on') === 'on',
      prefix: kit.text('HAMLET_QUEUE_PREFIX', 'hamlet'),
    },
    serviceUrls,
    console: {
      enabled: kit.flag('HAMLET_CONSOLE', true),
      port: kit.port('HAMLET_CONSOLE_PORT', 4900),
      sessionTtlMs: kit.duration('HAMLET_CONSOLE_SESSION_TTL', 12 * 3600_000, 60_000),
    },
    mcp: {
      allowedOrigins: kit.parsed(
        'HAMLET_MCP_ALLOWED_ORIGINS',
        [],
        parseAllowedOrigins,
        'expected a comma-separated list of origins (https://app.example.com), host names (app.example.com) or *',
      ),
    },
    trace: {
      enabled: kit.flag('HAMLET_TRACE', true),
      bodies: kit.flag('HAMLET_TRACE_BODIES', false),
      retentionMs: kit.duration('HAMLET_TRACE_RETENTION', 7 * 24 * 3600_000, 60_000),
      maxEntries: kit.count('HAMLET_TRACE_MAX_ENTRIES', 250_000, 100),
    },
    shutdownDrainMs: kit.duration('HAMLET_SHUTDOWN_DRAIN', 0),
    world: readWorldSettings(kit),
    evals: readEvalPageSettings(kit),
    source: { env: kit.env, flags: kit.flagValues },
  };
}

/** The platform's settings alone (services read theirs at start, see `configure`). Throws ConfigError. */
export function loadConfig(env: Env = process.env, flags: Record<string, string> = {}): HamletConfig {
  const kit = new SettingsKit(env, flags);
  const config = readPlatformSettings(kit);
  kit.check();
  return config;
}

/** Reads each selected service's settings from the config's source; throws one ConfigError for all. */
export async function configureServices(
  config: HamletConfig,
  kit = new SettingsKit(config.source.env, config.source.flags),
): Promise<ConfiguredService[]> {
  const configured: ConfiguredService[] = [];
  for (const name of config.services) {
    const definition = await loadService(name);
    configured.push({ definition, settings: definition.settings(kit, platformSettings(config)) });
  }
  kit.check();
  return configured;
}

/** The platform's settings services read (Platform.config, ServiceDefinition.settings): the slice, not the whole. */
export function platformSettings(config: HamletConfig): PlatformSettings {
  return {
    host: config.host,
    dataDir: config.dataDir,
    allowInternalRequests: config.allowInternalRequests,
    http: config.http,
    mcpAllowedOrigins: config.mcp.allowedOrigins,
  };
}

/** Everything `hamlet` needs to start, read with one kit: all problems are reported together. */
export async function configure(
  env: Env,
  flags: Record<string, string>,
): Promise<{ config: HamletConfig; services: ConfiguredService[]; ports: PortSetting[] }> {
  const kit = new SettingsKit(env, flags);
  const config = readPlatformSettings(kit);
  const services = await configureServices(config, kit); // checks the kit: platform problems too
  return { config, services, ports: kit.ports };
}

function httpSettings(kit: SettingsKit): HttpSettings {
  // COMMUNITY_TRUST_PROXY was a switch; its "1" meant one proxy in front, so it is one hop.
  let trustProxy: TrustProxySetting | undefined;
  const trustRaw = kit.raw('HAMLET_TRUST_PROXY');
  const aliasRaw = kit.raw('COMMUNITY_TRUST_PROXY');
  if (trustRaw !== undefined) {
    const parsed = parseTrustProxy(trustRaw);
    if (typeof parsed === 'string') kit.problem(`HAMLET_TRUST_PROXY=${trustRaw}: ${parsed}`);
    else trustProxy = parsed;
  } else if (aliasRaw !== undefined) {
    const flag = aliasRaw.toLowerCase();
    if (flag === '1' || flag === 'true') trustProxy = { hops: 1 };
    else if (flag !== '0' && flag !== 'false')
      kit.problem(`COMMUNITY_TRUST_PROXY=${aliasRaw}: must be 1 or 0 (or use HAMLET_TRUST_PROXY)`);
  }

  const headersTimeoutMs = kit.duration('HAMLET_HTTP_HEADERS_TIMEOUT', HTTP_DEFAULTS.headersTimeoutMs);
  const requestTimeoutMs = kit.duration('HAMLET_HTTP_REQUEST_TIMEOUT', HTTP_DEFAULTS.requestTimeoutMs);
  // Node refuses a headers timeout longer than the whole-request one.
  if (headersTimeoutMs > requestTimeoutMs)
    kit.problem(
      `HAMLET_HTTP_HEADERS_TIMEOUT=${kit.raw('HAMLET_HTTP_HEADERS_TIMEOUT') ?? headersTimeoutMs + 'ms'}: must not exceed HAMLET_HTTP_REQUEST_TIMEOUT (${requestTimeoutMs} ms)`,
    );
  return {
    trustProxy,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: kit.duration('HAMLET_HTTP_KEEPALIVE_TIMEOUT', HTTP_DEFAULTS.keepAliveTimeoutMs),
    maxConnections: kit.count('HAMLET_HTTP_MAX_CONNECTIONS', HTTP_DEFAULTS.maxConnections, 1, 1_000_000),
    jsonMaxDepth: kit.count('HAMLET_JSON_MAX_DEPTH', HTTP_DEFAULTS.jsonMaxDepth, 2, 10_000),
    eagerSchemas: kit.flag('HAMLET_HTTP_EAGER_SCHEMAS', false),
  };
}
