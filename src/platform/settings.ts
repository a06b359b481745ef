// One way to read settings: the platform and every service parse their variables with this kit.
// A kit collects every problem instead of throwing at the first, so an operator sees all of a
// misconfiguration in one go (`hamlet start` reports the platform's and every selected
// service's problems together), and each message names the variable, its value and what it
// should be.
import { maskUrlPassword } from './redact.js';

export type Env = Readonly<Record<string, string | undefined>>;

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
  return Number(m[1]) * DURATION_UNITS[m[2] ?? 'ms'];
}

export interface RateLimitSetting {
  max: number;
  windowMs: number;
}

/** Parses "100/1h" into a limit of 100 requests per hour. */
export function parseRateLimit(text: string): RateLimitSetting | undefined {
  const m = /^(\d+)\s*\/\s*(\S+)$/.exec(text.trim());
  if (!m) return undefined;
  const windowMs = parseDuration(m[2]);
  if (!windowMs) return undefined;
  return { max: Number(m[1]), windowMs };
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** A port some setting asked for, so a start-up failure on it can name that setting. */
export interface PortSetting {
  setting: string;
  port: number;
}

export class SettingsKit {
  readonly problems: string[] = [];
  /** Every port read through `port()`, in order. */
  readonly ports: PortSetting[] = [];

  /** `flags` (command-line `--name value`) win over the environment where a reader names one. */
  constructor(
    readonly env: Env,
    readonly flagValues: Readonly<Record<string, string>> = {},
  ) {}

  /** The raw value, or undefined when unset or empty. */
  raw(name: string, flag?: string): string | undefined {
    const v = (flag !== undefined ? this.flagValues[flag] : undefined) ?? this.env[name];
    return v === undefined || v === '' ? undefined : v;
  }

  /** Records a problem found by a check the kit does not offer (e.g. two settings that disagree). */
  problem(message: string): void {
    this.problems.push(message);
  }

  /** Throws one ConfigError listing every problem found so far. */
  check(): void {
    if (this.problems.length) throw new ConfigError([...this.problems]);
  }

  text(name: string, fallback: string, flag?: string): string {
    return this.raw(name, flag) ?? fallback;
  }

  flag(name: string, fallback: boolean, flag?: string): boolean {
    const raw = this.raw(name, flag);
    if (raw === undefined) return fallback;
    const v = raw.toLowerCase();
    if (['1', 'true', 'on', 'yes'].includes(v)) return true;
    if (['0', 'false', 'off', 'no'].includes(v)) return false;
    this.problems.push(`${name}=${raw}: must be on or off (1/0, true/false)`);
    return fallback;
  }

  oneOf<T extends string>(name: string, choices: readonly T[], fallback: T, flag?: string): T {
    const raw = this.raw(name, flag);
    if (raw === undefined) return fallback;
    if ((choices as readonly string[]).includes(raw)) return raw as T;
    this.problems.push(`${name}=${raw}: must be one of ${choices.join(', ')}`);
    return fallback;
  }

  /** A whole number from min to max. */
  count(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER, flag?: string): number {
    const raw = this.raw(name, flag);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      this.problems.push(
        max === Number.MAX_SAFE_INTEGER
          ? `${name}=${raw}: expected a whole number of at least ${min}`
          : `${name}=${raw}: must be a whole number from ${min} to ${max}`,
      );
      return fallback;
    }
    return n;
  }

  /** A positive number (fractions allowed unless `integer`). */
  positive(name: string, fallback: number, integer = false): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
      this.problems.push(`${name}=${raw}: expected a positive ${integer ? 'whole ' : ''}number`);
      return fallback;
    }
    return n;
  }

  /** A duration such as 500ms, 30s, 15m, 1h or 14d, in milliseconds; at least `min`. */
  duration(name: string, fallback: number, min = 1): number {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const ms = parseDuration(raw);
    if (ms === undefined || ms < min) {
      const floor = min <= 0 ? ' (0 disables)' : min === 1 ? ' above zero' : ` of at least ${min}ms`;
      this.problems.push(`${name}=${raw}: expected a duration${floor}, e.g. 500ms, 30s, 15m, 1h or 14d`);
      return fallback;
    }
    return ms;
  }

  /** A TCP port; 0 picks a free one. */
  port(name: string, fallback: number, flag?: string): number {
    const raw = this.raw(name, flag);
    let port = fallback;
    if (raw !== undefined) {
      const n = Number(raw);
      if (!/^\d+$/.test(raw) || n > 65535)
        this.problems.push(`${name}=${raw}: a port must be a whole number from 0 to 65535 (0 picks a free port)`);
      else port = n;
    }
    this.ports.push({ setting: name, port });
    return port;
  }

  /** A URL of one of the given protocols (e.g. ['http:', 'https:']); passwords are masked in messages. */
  url(name: string, protocols: string[], flag?: string): URL | undefined {
    const raw = this.raw(name, flag);
    if (raw === undefined) return undefined;
    const shown = maskUrlPassword(raw);
    try {
      const u = new URL(raw);
      if (protocols.includes(u.protocol)) return u;
      this.problems.push(`${name}=${shown}: expected a ${protocols.map((p) => p.replace(/:$/, '')).join(' or ')} URL`);
    } catch {
      this.problems.push(`${name}=${shown}: not a valid URL`);
    }
    return undefined;
  }

  /** An http(s) base URL without its trailing slash (for links a service puts in answers). */
  baseUrl(name: string): string | undefined {
    const u = this.url(name, ['http:', 'https:']);
    return u ? this.raw(name)!.replace(/\/$/, '') : undefined;
  }

  /** A comma-separated list, trimmed, empty entries dropped. */
  list(name: string, fallback: string[] = [], flag?: string): string[] {
    const raw = this.raw(name, flag);
    if (raw === undefined) return fallback;
    return raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  }

  /** A DNS host name, lower-cased. */
  hostname(name: string, fallback: string, flag?: string): string {
    const value = this.text(name, fallback, flag).toLowerCase();
    if (!HOSTNAME.test(value)) this.problems.push(`${name}=${value}: not a valid host name`);
    return value;
  }

  /** A comma-separated list of DNS names, lower-cased. */
  hostnames(name: string, fallback: string, flag?: string): string[] {
    const values = this.list(name, [fallback], flag).map((d) => d.toLowerCase());
    for (const d of values) if (!HOSTNAME.test(d)) this.problems.push(`${name}: ${d} is not a valid domain`);
    return values;
  }

  /** An IANA time zone name. */
  timezone(name: string, fallback: string, alias?: string): string {
    const raw = this.raw(name) ?? (alias ? this.raw(alias) : undefined) ?? fallback;
    try {
      new Intl.DateTimeFormat('en', { timeZone: raw });
      return raw;
    } catch {
      this.problems.push(`${name}=${raw}: not an IANA time zone (e.g. UTC, Europe/Berlin)`);
      return fallback;
    }
  }

  /** Parses with a custom reader; `undefined` from it is a problem described by `expected`. */
  parsed<T>(name: string, fallback: T, read: (raw: string) => T | undefined, expected: string): T {
    const raw = this.raw(name);
    if (raw === undefined) return fallback;
    const value = read(raw);
    if (value === undefined) {
      this.problems.push(`${name}=${raw}: ${expected}`);
      return fallback;
    }
    return value;
  }
}

/** Reads one set of settings from `env` and throws a ConfigError listing every problem. */
export function readSettings<S>(read: (kit: SettingsKit) => S, env: Env, flags: Record<string, string> = {}): S {
  const kit = new SettingsKit(env, flags);
  const settings = read(kit);
  kit.check();
  return settings;
}
