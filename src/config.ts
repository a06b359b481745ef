// One typed configuration, read from flags and the environment and validated at start.
// Every bad value is reported at once, each with its own message, so an operator fixes
// a misconfiguration in one go instead of one restart per mistake.
import { parseTrustProxy, type TrustProxySetting } from './platform/client-address.js';
import { DEFAULT_JSON_MAX_DEPTH } from './platform/json-limits.js';
import { maskUrlPassword } from './platform/redact.js';

export const SERVICE_NAMES = ['blog', 'mail', 'community', 'home', 'workflow'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

export interface RateLimitSetting {
  max: number;
  windowMs: number;
}

export interface HamletConfig {
  dataDir: string;
  host: string;
  ports: {
    blog: number;
    mail: number;
    smtp: number;
    community: number;
    home: number;
    workflow: number;
  };
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl?: string;
  redisUrl?: string;
  services: ServiceName[];
  logLevel: string;
  prettyLogs: boolean;
  blog: {
    domain: string;
    /** Scheme used in the public blog and post URLs the API returns (the contract says https). */
    publicScheme: 'http' | 'https';
    /** Port appended to public blog URLs, for local use (e.g. 4000); none by default. */
    publicPort?: number;
    /** Where the API is reachable from outside, for links in e-mails; defaults to the listen address. */
    apiBaseUrl?: string;
    mailFrom: string;
  };
  mail: {
    /** The mail service's own domains: mail to them is delivered to our own SMTP port. */
    domains: string[];
  };
  smtpRelay?: { host: string; port: number; secure: boolean; user?: string; pass?: string };
  rateLimits: {
    enabled: boolean;
    /** Overrides by limit name, from HAMLET_RATE_<NAME>=<max>/<window>. */
    overrides: Record<string, RateLimitSetting>;
  };
  /** The HTTP edge every service shares (see platform/http.ts). */
  http: HttpSettings;
  /** Fair shares of the WebSocket clients of all services (platform/ws-budget.ts). */
  websockets: { maxPerKey: number; maxPerAddress: number; memoryBudgetBytes: number };
  /** Everything else in the environment, for service-specific settings read through `env`. */
  env: Record<string, string | undefined>;
}

export interface HttpSettings {
  /** HAMLET_TRUST_PROXY (alias COMMUNITY_TRUST_PROXY): proxies whose X-Forwarded-For entries are believed. */
  trustProxy?: TrustProxySetting;
  /** A request's headers must arrive within this (slow-header clients are cut off). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections per listening port; more are closed as they arrive. */
  maxConnections: number;
  /** Deepest JSON body (and home WebSocket message) accepted, in nested objects/arrays. */
  jsonMaxDepth: number;
}

export const HTTP_DEFAULTS: HttpSettings = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
  jsonMaxDepth: DEFAULT_JSON_MAX_DEPTH,
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Parses "500ms", "30s", "15m", "1h", "1d" (or a bare number of milliseconds). */
export function parseDuration(text: string): number | undefined {
  const m = /^(\d+)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!m) return undefined;
  return Number(m[1]) * DURATION_UNITS[m[2] ?? 'ms']!;
}

/** Parses "100/1h" into a limit of 100 requests per hour. */
export function parseRateLimit(text: string): RateLimitSetting | undefined {
  const m = /^(\d+)\s*\/\s*(\S+)$/.exec(text.trim());
  if (!m) return undefined;
  const windowMs = parseDuration(m[2]!);
  if (!windowMs) return undefined;
  return { max: Number(m[1]), windowMs };
}

const BOOLEAN_FLAGS = new Set(['pretty', 'help']);

/** Splits argv into `--name value` / `--name=value` / `--flag` flags and positional words. */
export function parseArgs(argv: string[]): { flags: Record<string, string>; positional: string[] } {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (!BOOLEAN_FLAGS.has(arg.slice(2)) && i + 1 < argv.length && !argv[i + 1]!.startsWith('--')) {
      flags[arg.slice(2)] = argv[++i]!;
    } else {
      flags[arg.slice(2)] = 'true';
    }
  }
  return { flags, positional };
}

export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  flags: Record<string, string> = {},
): HamletConfig {
  const problems: string[] = [];
  const get = (name: string, flag?: string): string | undefined => {
    const v = (flag && flags[flag]) ?? env[name];
    return v === undefined || v === '' ? undefined : v;
  };

  const port = (name: string, flag: string, fallback: number): number => {
    const raw = get(name, flag);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n > 65535) {
      problems.push(`${name}=${raw}: a port must be a whole number from 0 to 65535 (0 picks a free port)`);
      return fallback;
    }
    return n;
  };

  const url = (name: string, protocols: string[]): URL | undefined => {
    const raw = get(name);
    if (raw === undefined) return undefined;
    const shown = maskUrlPassword(raw);
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) {
        problems.push(`${name}=${shown}: expected a ${protocols.join(' or ')} URL`);
        return undefined;
      }
      return u;
    } catch {
      problems.push(`${name}=${shown}: not a valid URL`);
      return undefined;
    }
  };

  const servicesRaw = get('HAMLET_SERVICES', 'services');
  let services: ServiceName[] = [...SERVICE_NAMES];
  if (servicesRaw !== undefined) {
    const wanted = servicesRaw.split(',').map((s) => s.trim()).filter(Boolean);
    const unknown = wanted.filter((s) => !(SERVICE_NAMES as readonly string[]).includes(s));
    if (unknown.length) problems.push(`--services: unknown service ${unknown.join(', ')} (known: ${SERVICE_NAMES.join(', ')})`);
    if (wanted.length === 0) problems.push('--services: name at least one service');
    services = SERVICE_NAMES.filter((s) => wanted.includes(s));
  }

  const host = get('HAMLET_HOST', 'host') ?? '127.0.0.1';
  const ports = {
    blog: port('BLOG_PORT', 'blog-port', 4000),
    mail: port('MAIL_PORT', 'mail-port', 4100),
    smtp: port('SMTP_PORT', 'smtp-port', 2525),
    community: port('COMMUNITY_PORT', 'community-port', 4200),
    home: port('HOME_PORT', 'home-port', 8123),
    workflow: port('WORKFLOW_PORT', 'workflow-port', 5678),
  };

  const db = url('DATABASE_URL', ['postgres:', 'postgresql:']);
  const redis = url('REDIS_URL', ['redis:', 'rediss:']);

  const relay = url('HAMLET_SMTP_RELAY', ['smtp:', 'smtps:']);
  const smtpRelay = relay
    ? {
        host: relay.hostname,
        port: relay.port ? Number(relay.port) : relay.protocol === 'smtps:' ? 465 : 25,
        secure: relay.protocol === 'smtps:',
        user: relay.username ? decodeURIComponent(relay.username) : undefined,
        pass: relay.password ? decodeURIComponent(relay.password) : undefined,
      }
    : undefined;

  const hostname = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;
  const blogDomain = (get('BLOG_DOMAIN', 'blog-domain') ?? 'blog.localhost').toLowerCase();
  if (!hostname.test(blogDomain)) problems.push(`BLOG_DOMAIN=${blogDomain}: not a valid host name`);

  const scheme = get('BLOG_PUBLIC_SCHEME') ?? 'https';
  if (scheme !== 'http' && scheme !== 'https') problems.push(`BLOG_PUBLIC_SCHEME=${scheme}: must be http or https`);
  const publicPortRaw = get('BLOG_PUBLIC_PORT');
  let publicPort: number | undefined;
  if (publicPortRaw !== undefined) {
    publicPort = Number(publicPortRaw);
    if (!/^\d+$/.test(publicPortRaw) || publicPort < 1 || publicPort > 65535) {
      problems.push(`BLOG_PUBLIC_PORT=${publicPortRaw}: must be a port from 1 to 65535`);
      publicPort = undefined;
    }
  }
  const apiBase = url('BLOG_API_URL', ['http:', 'https:']);

  const mailDomains = (get('MAIL_DOMAIN', 'mail-domain') ?? 'mail.localhost')
    .split(',')
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  for (const d of mailDomains) if (!hostname.test(d)) problems.push(`MAIL_DOMAIN: ${d} is not a valid domain`);

  const rateRaw = (get('HAMLET_RATE_LIMITS') ?? 'on').toLowerCase();
  if (!['on', 'off'].includes(rateRaw)) problems.push(`HAMLET_RATE_LIMITS=${rateRaw}: must be on or off`);
  const overrides: Record<string, RateLimitSetting> = {};
  for (const [name, value] of Object.entries(env)) {
    if (!name.startsWith('HAMLET_RATE_') || name === 'HAMLET_RATE_LIMITS' || value === undefined) continue;
    const parsed = parseRateLimit(value);
    if (!parsed || parsed.max < 1) {
      problems.push(`${name}=${value}: expected <max>/<window>, e.g. 100/1h or 20/15m`);
      continue;
    }
    overrides[name.slice('HAMLET_RATE_'.length).toLowerCase()] = parsed;
  }

  const count = (name: string, fallback: number, min: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      problems.push(`${name}=${raw}: expected a whole number of at least ${min}`);
      return fallback;
    }
    return Number(raw);
  };
  const websockets = {
    maxPerKey: count('HAMLET_WS_MAX_PER_KEY', 50, 1),
    maxPerAddress: count('HAMLET_WS_MAX_PER_ADDRESS', 200, 1),
    memoryBudgetBytes: count('HAMLET_WS_MEMORY_BUDGET', 64 * 1024 * 1024, 1024 * 1024),
  };

  const logLevel = get('HAMLET_LOG_LEVEL', 'log-level') ?? 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    problems.push(`HAMLET_LOG_LEVEL=${logLevel}: must be one of fatal, error, warn, info, debug, trace, silent`);
  }

  const http = httpSettings(get, problems);

  if (problems.length) throw new ConfigError(problems);

  return {
    dataDir: get('HAMLET_DATA_DIR', 'data-dir') ?? './data',
    host,
    ports,
    databaseUrl: db?.toString(),
    redisUrl: redis?.toString(),
    services,
    logLevel,
    prettyLogs: flags['pretty'] === 'true' || get('HAMLET_PRETTY_LOGS') === '1',
    blog: {
      domain: blogDomain,
      publicScheme: scheme as 'http' | 'https',
      publicPort,
      apiBaseUrl: apiBase?.toString().replace(/\/$/, ''),
      mailFrom: get('BLOG_MAIL_FROM') ?? `Hamlet Blogs <no-reply@${blogDomain}>`,
    },
    mail: { domains: mailDomains },
    smtpRelay,
    rateLimits: { enabled: rateRaw === 'on', overrides },
    http,
    websockets,
    env,
  };
}

function httpSettings(get: (name: string) => string | undefined, problems: string[]): HttpSettings {
  const duration = (name: string, fallback: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const ms = parseDuration(raw);
    if (!ms) {
      problems.push(`${name}=${raw}: expected a duration above zero, e.g. 500ms, 20s or 2m`);
      return fallback;
    }
    return ms;
  };
  const count = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      problems.push(`${name}=${raw}: must be a whole number from ${min} to ${max}`);
      return fallback;
    }
    return n;
  };

  // COMMUNITY_TRUST_PROXY was a switch; its "1" meant one proxy in front, so it is one hop.
  let trustProxy: TrustProxySetting | undefined;
  const trustRaw = get('HAMLET_TRUST_PROXY');
  const aliasRaw = get('COMMUNITY_TRUST_PROXY');
  if (trustRaw !== undefined) {
    const parsed = parseTrustProxy(trustRaw);
    if (typeof parsed === 'string') problems.push(`HAMLET_TRUST_PROXY=${trustRaw}: ${parsed}`);
    else trustProxy = parsed;
  } else if (aliasRaw !== undefined) {
    const flag = aliasRaw.toLowerCase();
    if (flag === '1' || flag === 'true') trustProxy = { hops: 1 };
    else if (flag !== '0' && flag !== 'false') problems.push(`COMMUNITY_TRUST_PROXY=${aliasRaw}: must be 1 or 0 (or use HAMLET_TRUST_PROXY)`);
  }

  const headersTimeoutMs = duration('HAMLET_HTTP_HEADERS_TIMEOUT', HTTP_DEFAULTS.headersTimeoutMs);
  const requestTimeoutMs = duration('HAMLET_HTTP_REQUEST_TIMEOUT', HTTP_DEFAULTS.requestTimeoutMs);
  // Node refuses a headers timeout longer than the whole-request one.
  if (headersTimeoutMs > requestTimeoutMs) problems.push(`HAMLET_HTTP_HEADERS_TIMEOUT=${get('HAMLET_HTTP_HEADERS_TIMEOUT') ?? headersTimeoutMs + 'ms'}: must not exceed HAMLET_HTTP_REQUEST_TIMEOUT (${requestTimeoutMs} ms)`);
  return {
    trustProxy,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: duration('HAMLET_HTTP_KEEPALIVE_TIMEOUT', HTTP_DEFAULTS.keepAliveTimeoutMs),
    maxConnections: count('HAMLET_HTTP_MAX_CONNECTIONS', HTTP_DEFAULTS.maxConnections, 1, 1_000_000),
    jsonMaxDepth: count('HAMLET_JSON_MAX_DEPTH', HTTP_DEFAULTS.jsonMaxDepth, 2, 10_000),
  };
}
