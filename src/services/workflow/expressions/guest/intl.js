// The sandbox side of Intl (the host side is ../sandbox/intl.ts, intlCall). QuickJS has no
// Intl, and Luxon needs it for time zones, month names in other locales, number formatting
// and relative times: this small `Intl` forwards to the host's Intl through one narrow host
// operation. Locales and options go out as JSON of plain strings, numbers and booleans;
// formatted text comes back. No host object crosses. Runs first, when a context is created.

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
  /** A class named `kind` whose instances forward `methods` to the host. @returns {any} */
  function define(kind, methods) {
    const C = function (locales, options) {
      if (!new.target) return new C(locales, options);
      this.__l = locales;
      this.__o = options;
      this.__r = call(kind, locales, options, 'resolvedOptions');
    };
    C.prototype.resolvedOptions = function () {
      return Object.assign({}, this.__r);
    };
    for (const name of Object.keys(methods)) C.prototype[name] = methods[name];
    C.supportedLocalesOf = function (locales) {
      return call('getCanonicalLocales', locales, undefined, '');
    };
    Object.defineProperty(C, 'name', { value: kind });
    return C;
  }
  const DateTimeFormat = define('DateTimeFormat', {
    format(date) {
      return cached(this, 'DateTimeFormat', 'format', toMs(date));
    },
    formatToParts(date) {
      return cached(this, 'DateTimeFormat', 'formatToParts', toMs(date));
    },
  });
  const NumberFormat = define('NumberFormat', {
    format(n) {
      return cached(this, 'NumberFormat', 'format', Number(n));
    },
    formatToParts(n) {
      return cached(this, 'NumberFormat', 'formatToParts', Number(n));
    },
  });
  const RelativeTimeFormat = define('RelativeTimeFormat', {
    format(value, unit) {
      return call('RelativeTimeFormat', this.__l, this.__o, 'format', [Number(value), String(unit)]);
    },
    formatToParts(value, unit) {
      return call('RelativeTimeFormat', this.__l, this.__o, 'formatToParts', [Number(value), String(unit)]);
    },
  });
  const PluralRules = define('PluralRules', {
    select(n) {
      return call('PluralRules', this.__l, this.__o, 'select', Number(n));
    },
  });
  const Collator = define('Collator', {
    compare(a, b) {
      return call('Collator', this.__l, this.__o, 'compare', [String(a), String(b)]);
    },
  });
  const Intl = {
    DateTimeFormat,
    NumberFormat,
    RelativeTimeFormat,
    PluralRules,
    Collator,
    getCanonicalLocales(locales) {
      return call('getCanonicalLocales', locales, undefined, '');
    },
  };
  Object.defineProperty(globalThis, 'Intl', { value: Intl, writable: true, configurable: true });

  // Locale-aware localeCompare: QuickJS compares code units ('false' after 'Zoë'), V8 by the
  // locale's collation, as n8n's sandboxes do (a sort comparator's order depends on it). One
  // collator per locales/options, remembered.
  const collators = new Map();
  Object.defineProperty(String.prototype, 'localeCompare', {
    value: function localeCompare(that, locales, options) {
      if (this === null || this === undefined)
        throw new TypeError('String.prototype.localeCompare called on null or undefined');
      const key = stringify([locales === undefined ? null : locales, options === undefined ? null : options]);
      let collator = collators.get(key);
      if (!collator) {
        collator = new Collator(locales, options);
        if (collators.size >= REMEMBERED) collators.delete(collators.keys().next().value);
        collators.set(key, collator);
      }
      return collator.compare(String(this), String(that));
    },
    writable: true,
    configurable: true,
  });

  // Locale-aware toLocaleString, which QuickJS implements without locales.
  Object.defineProperty(Number.prototype, 'toLocaleString', {
    value: function toLocaleString(locales, options) {
      return new NumberFormat(locales, options).format(Number(this));
    },
    writable: true,
    configurable: true,
  });
  const dateDefaults = {
    toLocaleString: {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    },
    toLocaleDateString: { year: 'numeric', month: 'numeric', day: 'numeric' },
    toLocaleTimeString: { hour: 'numeric', minute: 'numeric', second: 'numeric' },
  };
  for (const name of Object.keys(dateDefaults)) {
    Object.defineProperty(Date.prototype, name, {
      value: function (locales, options) {
        const opts = Object.assign({}, options || {});
        const keys = [
          'weekday',
          'era',
          'year',
          'month',
          'day',
          'hour',
          'minute',
          'second',
          'dateStyle',
          'timeStyle',
          'timeZoneName',
        ];
        if (!keys.some((k) => opts[k] !== undefined)) Object.assign(opts, dateDefaults[name]);
        return new DateTimeFormat(locales, opts).format(this.getTime());
      },
      writable: true,
      configurable: true,
    });
  }
})();
