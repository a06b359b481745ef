// The host side of the sandbox's Intl (the guest side is ../guest/intl.js). QuickJS has no
// Intl, and Luxon needs it for time zones, month names in other locales, number formatting
// and relative times. Inside the sandbox a small `Intl` forwards to the host's Intl through
// one narrow host operation: locales and options go out as JSON of plain strings, numbers
// and booleans; formatted text comes back. No host object crosses.

const MAX_CACHED = 256;
const cache = new Map<
  string,
  Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.PluralRules | Intl.Collator
>();

type Kind = 'DateTimeFormat' | 'NumberFormat' | 'RelativeTimeFormat' | 'PluralRules' | 'Collator';
const KINDS = new Set<Kind>(['DateTimeFormat', 'NumberFormat', 'RelativeTimeFormat', 'PluralRules', 'Collator']);

function checkLocales(value: unknown): string | string[] | undefined {
  if (value === null || value === undefined) return undefined;
  const list = Array.isArray(value) ? value : [value];
  if (list.length > 10 || !list.every((l) => typeof l === 'string' && l.length <= 100)) {
    throw new TypeError('Incorrect locale information provided');
  }
  return value as string | string[];
}

function checkOptions(value: unknown): Record<string, string | number | boolean> | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw new TypeError('Options must be an object');
  const out: Record<string, string | number | boolean> = {};
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    if (typeof v === 'string' ? v.length > 200 : typeof v !== 'number' && typeof v !== 'boolean') {
      throw new TypeError(`Invalid option ${key}`);
    }
    out[key] = v as string | number | boolean;
  }
  return out;
}

function formatter(kind: Kind, spec: string, defaultTimeZone: string) {
  const key = kind === 'DateTimeFormat' ? `${kind}${defaultTimeZone}${spec}` : kind + spec;
  let instance = cache.get(key);
  if (!instance) {
    const [locales, options] = JSON.parse(spec) as [unknown, unknown];
    const l = checkLocales(locales);
    let o = checkOptions(options);
    // Dates format in the workflow's zone unless the caller names one (Luxon always does).
    if (kind === 'DateTimeFormat' && o?.timeZone === undefined) o = { ...o, timeZone: defaultTimeZone };
    instance =
      kind === 'DateTimeFormat'
        ? new Intl.DateTimeFormat(l, o)
        : kind === 'NumberFormat'
          ? new Intl.NumberFormat(l, o)
          : kind === 'RelativeTimeFormat'
            ? new Intl.RelativeTimeFormat(l, o)
            : kind === 'Collator'
              ? new Intl.Collator(l, o)
              : new Intl.PluralRules(l, o);
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value!);
    cache.set(key, instance);
  }
  return instance;
}

/**
 * The host side of the sandbox's Intl: `kind` names the Intl class, `spec` is the JSON of
 * [locales, options], `method` one of the few methods the shim exposes, `arg` its JSON argument.
 * Returns JSON text. Throws RangeError/TypeError like Intl does (the caller forwards them).
 */
export function intlCall(
  kind: string,
  spec: string,
  method: string,
  arg: string | undefined,
  defaultTimeZone: string,
): string {
  if (kind === 'getCanonicalLocales') {
    return JSON.stringify(Intl.getCanonicalLocales(checkLocales(JSON.parse(spec))));
  }
  if (!KINDS.has(kind as Kind)) throw new TypeError(`Intl.${kind} is not supported`);
  const f = formatter(kind as Kind, spec, defaultTimeZone);
  const a = arg === undefined ? undefined : (JSON.parse(arg) as unknown);
  switch (method) {
    case 'resolvedOptions':
      return JSON.stringify(f.resolvedOptions());
    case 'format':
    case 'formatToParts': {
      if (f instanceof Intl.DateTimeFormat) {
        const date = new Date(Number(a));
        return JSON.stringify(method === 'format' ? f.format(date) : f.formatToParts(date));
      }
      if (f instanceof Intl.NumberFormat) {
        const n = Number(a);
        return JSON.stringify(method === 'format' ? f.format(n) : f.formatToParts(n));
      }
      if (f instanceof Intl.RelativeTimeFormat) {
        const [value, unit] = a as [number, Intl.RelativeTimeFormatUnit];
        return JSON.stringify(
          method === 'format'
            ? f.format(Number(value), String(unit) as Intl.RelativeTimeFormatUnit)
            : f.formatToParts(Number(value), String(unit) as Intl.RelativeTimeFormatUnit),
        );
      }
      break;
    }
    case 'select':
      if (f instanceof Intl.PluralRules) return JSON.stringify(f.select(Number(a)));
      break;
    case 'compare':
      // Two strings in, their collation order out (String.prototype.localeCompare uses it too).
      if (f instanceof Intl.Collator && Array.isArray(a)) return JSON.stringify(f.compare(String(a[0]), String(a[1])));
      break;
  }
  throw new TypeError(`Intl.${kind}.prototype.${method} is not supported`);
}
