// QuickJS has no Intl, and Luxon needs it for time zones, month names in other locales,
// number formatting and relative times. Inside the sandbox a small `Intl` forwards to the
// host's Intl through one narrow host operation: locales and options go out as JSON of plain
// strings, numbers and booleans; formatted text comes back. No host object crosses.

const MAX_CACHED = 256;
const cache = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.RelativeTimeFormat | Intl.PluralRules>();

type Kind = 'DateTimeFormat' | 'NumberFormat' | 'RelativeTimeFormat' | 'PluralRules';
const KINDS = new Set<Kind>(['DateTimeFormat', 'NumberFormat', 'RelativeTimeFormat', 'PluralRules']);

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
export function intlCall(kind: string, spec: string, method: string, arg: string | undefined, defaultTimeZone: string): string {
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
        return JSON.stringify(method === 'format' ? f.format(Number(value), String(unit) as Intl.RelativeTimeFormatUnit) : f.formatToParts(Number(value), String(unit) as Intl.RelativeTimeFormatUnit));
      }
      break;
    }
    case 'select':
      if (f instanceof Intl.PluralRules) return JSON.stringify(f.select(Number(a)));
      break;
  }
  throw new TypeError(`Intl.${kind}.prototype.${method} is not supported`);
}

/** The sandbox side: an Intl object whose classes forward to `intlCall`. */
export const INTL_JS = String.raw`
(function () {
  'use strict';
  const host = globalThis.__hamletHost;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  function ask(kind, locales, options, method, arg) {
    const spec = stringify([locales === undefined ? null : locales, options === undefined ? null : options]);
    const answer = host('intl', kind, spec, method, arg === undefined ? undefined : stringify(arg));
    if (answer.charCodeAt(0) === 33) {
      const e = parse(answer.slice(1));
      throw e.kind === 'TypeError' ? new TypeError(e.message) : new RangeError(e.message);
    }
    return answer;
  }
  function call(kind, locales, options, method, arg) {
    return parse(ask(kind, locales, options, method, arg));
  }
  // Luxon asks a time-zone formatter for the same instant several times per operation; each
  // formatter remembers its last answers (as text, so every caller gets its own copy).
  const REMEMBERED = 16;
  function cached(self, kind, method, arg) {
    const key = method + ':' + stringify(arg);
    let answers = self.__answers;
    if (!answers) {
      answers = new Map();
      Object.defineProperty(self, '__answers', { value: answers });
    }
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = ask(kind, self.__l, self.__o, method, arg);
      if (answers.size >= REMEMBERED) answers.delete(answers.keys().next().value);
      answers.set(key, answer);
    }
    return parse(answer);
  }
  function toMs(date) {
    if (date === undefined) return Date.now();
    const ms = typeof date === 'number' ? date : Number(date);
    if (!Number.isFinite(ms)) throw new RangeError('Invalid time value');
    return ms;
  }
  function define(kind, methods) {
    const C = function (locales, options) {
      if (!new.target) return new C(locales, options);
      this.__l = locales;
      this.__o = options;
      this.__r = call(kind, locales, options, 'resolvedOptions');
    };
    C.prototype.resolvedOptions = function () { return Object.assign({}, this.__r); };
    for (const name of Object.keys(methods)) C.prototype[name] = methods[name];
    C.supportedLocalesOf = function (locales) { return call('getCanonicalLocales', locales, undefined, ''); };
    Object.defineProperty(C, 'name', { value: kind });
    return C;
  }
  const DateTimeFormat = define('DateTimeFormat', {
    format(date) { return cached(this, 'DateTimeFormat', 'format', toMs(date)); },
    formatToParts(date) { return cached(this, 'DateTimeFormat', 'formatToParts', toMs(date)); },
  });
  const NumberFormat = define('NumberFormat', {
    format(n) { return cached(this, 'NumberFormat', 'format', Number(n)); },
    formatToParts(n) { return cached(this, 'NumberFormat', 'formatToParts', Number(n)); },
  });
  const RelativeTimeFormat = define('RelativeTimeFormat', {
    format(value, unit) { return call('RelativeTimeFormat', this.__l, this.__o, 'format', [Number(value), String(unit)]); },
    formatToParts(value, unit) { return call('RelativeTimeFormat', this.__l, this.__o, 'formatToParts', [Number(value), String(unit)]); },
  });
  const PluralRules = define('PluralRules', {
    select(n) { return call('PluralRules', this.__l, this.__o, 'select', Number(n)); },
  });
  const Intl = {
    DateTimeFormat, NumberFormat, RelativeTimeFormat, PluralRules,
    getCanonicalLocales(locales) { return call('getCanonicalLocales', locales, undefined, ''); },
  };
  Object.defineProperty(globalThis, 'Intl', { value: Intl, writable: true, configurable: true });

  // Locale-aware toLocaleString, which QuickJS implements without locales.
  Object.defineProperty(Number.prototype, 'toLocaleString', {
    value: function toLocaleString(locales, options) { return new NumberFormat(locales, options).format(Number(this)); },
    writable: true, configurable: true,
  });
  const dateDefaults = {
    toLocaleString: { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' },
    toLocaleDateString: { year: 'numeric', month: 'numeric', day: 'numeric' },
    toLocaleTimeString: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
  };
  for (const name of Object.keys(dateDefaults)) {
    Object.defineProperty(Date.prototype, name, {
      value: function (locales, options) {
        const opts = Object.assign({}, options || {});
        const keys = ['weekday', 'era', 'year', 'month', 'day', 'hour', 'minute', 'second', 'dateStyle', 'timeStyle', 'timeZoneName'];
        if (!keys.some((k) => opts[k] !== undefined)) Object.assign(opts, dateDefaults[name]);
        return new DateTimeFormat(locales, opts).format(this.getTime());
      },
      writable: true, configurable: true,
    });
  }
})();
`;
