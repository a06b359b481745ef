// Web-platform globals that Code written for n8n (which runs on Node) expects and QuickJS
// lacks: URL (parsed by the host's WHATWG parser, ../sandbox/web.ts, through one host
// operation: text in, JSON out), URLSearchParams, btoa/atob, structuredClone and Node's Buffer
// (plain JavaScript, here). Runs second, when a context is created.

(function () {
  'use strict';
  const host = globalThis.__hamletHost;
  function parseUrl(input, base) {
    const answer = host('url', String(input), base === undefined ? undefined : String(base));
    if (answer.charCodeAt(0) === 33) throw new TypeError(JSON.parse(answer.slice(1)).message);
    return JSON.parse(answer);
  }

  // ------------------------------------------------------------ URLSearchParams
  // Their state lives in non-enumerable properties (defined in the constructors), which the
  // type checker cannot see there: these types name them where they are read.
  /** @typedef {{ _onChange?: (query: string) => void }} HiddenParams */
  /** @typedef {{ _parts?: Record<string, string>, _params?: URLSearchParams }} HiddenUrl */
  function formEncode(text) {
    return encodeURIComponent(text)
      .replace(/%20/g, '+')
      .replace(/[!'()~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  }
  function formDecode(text) {
    const spaced = text.replace(/\+/g, ' ');
    try {
      return decodeURIComponent(spaced);
    } catch (e) {
      return spaced;
    }
  }
  class URLSearchParams {
    constructor(init) {
      Object.defineProperty(this, '_list', { value: [], writable: true });
      Object.defineProperty(this, '_onChange', { value: undefined, writable: true });
      if (init === undefined || init === null) return;
      if (typeof init === 'string') this._parse(init);
      else if (typeof init[Symbol.iterator] === 'function')
        for (const [k, v] of init) this._list.push([String(k), String(v)]);
      else for (const k of Object.keys(init)) this._list.push([k, String(init[k])]);
    }
    _parse(text) {
      this._list = [];
      for (const part of String(text).replace(/^\?/, '').split('&')) {
        if (part === '') continue;
        const eq = part.indexOf('=');
        this._list.push(
          eq === -1 ? [formDecode(part), ''] : [formDecode(part.slice(0, eq)), formDecode(part.slice(eq + 1))],
        );
      }
    }
    _changed() {
      const self = /** @type {HiddenParams} */ (this);
      if (self._onChange) self._onChange(this.toString());
    }
    get size() {
      return this._list.length;
    }
    append(name, value) {
      this._list.push([String(name), String(value)]);
      this._changed();
    }
    delete(name, value) {
      this._list = this._list.filter(([k, v]) => !(k === String(name) && (value === undefined || v === String(value))));
      this._changed();
    }
    get(name) {
      const found = this._list.find(([k]) => k === String(name));
      return found ? found[1] : null;
    }
    getAll(name) {
      return this._list.filter(([k]) => k === String(name)).map(([, v]) => v);
    }
    has(name, value) {
      return this._list.some(([k, v]) => k === String(name) && (value === undefined || v === String(value)));
    }
    set(name, value) {
      const key = String(name);
      const index = this._list.findIndex(([k]) => k === key);
      if (index === -1) this._list.push([key, String(value)]);
      else
        this._list = this._list
          .filter(([k], i) => k !== key || i === index)
          .map((e) => (e[0] === key ? [key, String(value)] : e));
      this._changed();
    }
    sort() {
      this._list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      this._changed();
    }
    forEach(fn, thisArg) {
      for (const [k, v] of this._list) fn.call(thisArg, v, k, this);
    }
    keys() {
      return this._list.map(([k]) => k)[Symbol.iterator]();
    }
    values() {
      return this._list.map(([, v]) => v)[Symbol.iterator]();
    }
    entries() {
      return this._list.map(([k, v]) => [k, v])[Symbol.iterator]();
    }
    [Symbol.iterator]() {
      return this.entries();
    }
    toString() {
      return this._list.map(([k, v]) => formEncode(k) + '=' + formEncode(v)).join('&');
    }
  }

  // ------------------------------------------------------------ URL
  const PARTS = [
    'href',
    'protocol',
    'username',
    'password',
    'host',
    'hostname',
    'port',
    'pathname',
    'search',
    'hash',
    'origin',
  ];
  class URL {
    constructor(input, base) {
      Object.defineProperty(this, '_parts', { value: parseUrl(input, base), writable: true });
      const self = /** @type {HiddenUrl} */ (this);
      const params = new URLSearchParams(self._parts.search);
      /** @type {HiddenParams} */ (params)._onChange = (query) => {
        this.search = query;
      };
      Object.defineProperty(this, '_params', { value: params, writable: true });
    }
    static canParse(input, base) {
      try {
        parseUrl(input, base);
        return true;
      } catch (e) {
        return false;
      }
    }
    get searchParams() {
      return /** @type {HiddenUrl} */ (this)._params;
    }
    toString() {
      return /** @type {HiddenUrl} */ (this)._parts.href;
    }
    toJSON() {
      return /** @type {HiddenUrl} */ (this)._parts.href;
    }
  }
  for (const name of PARTS) {
    Object.defineProperty(URL.prototype, name, {
      get() {
        return this._parts[name];
      },
      set(value) {
        if (name === 'origin') return;
        if (name === 'href') {
          this._parts = parseUrl(value);
        } else {
          const p = Object.assign({}, this._parts);
          let v = String(value);
          if (name === 'search' && v && v[0] !== '?') v = '?' + v;
          if (name === 'hash' && v && v[0] !== '#') v = '#' + v;
          if (name === 'protocol' && !v.endsWith(':')) v += ':';
          p[name] = v;
          if (name === 'hostname' || name === 'port') p.host = p.hostname + (p.port ? ':' + p.port : '');
          const auth = p.username ? p.username + (p.password ? ':' + p.password : '') + '@' : '';
          this._parts = parseUrl(p.protocol + '//' + auth + p.host + p.pathname + p.search + p.hash);
        }
        if (name !== 'hash') this._params._parse(this._parts.search);
      },
      enumerable: true,
      configurable: true,
    });
  }

  // ------------------------------------------------------------ base64 (Latin-1, as in browsers and Node)
  const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  function btoa(text) {
    const s = String(text);
    let out = '';
    for (let i = 0; i < s.length; i += 3) {
      const a = s.charCodeAt(i),
        b = s.charCodeAt(i + 1),
        c = s.charCodeAt(i + 2);
      if (a > 255 || b > 255 || c > 255) throw new Error('Invalid character');
      const n = (a << 16) | ((b || 0) << 8) | (c || 0);
      out +=
        B64[(n >> 18) & 63] +
        B64[(n >> 12) & 63] +
        (i + 1 < s.length ? B64[(n >> 6) & 63] : '=') +
        (i + 2 < s.length ? B64[n & 63] : '=');
    }
    return out;
  }
  function atob(text) {
    const s = String(text)
      .replace(/[\t\n\f\r ]/g, '')
      .replace(/=+$/, '');
    if (/[^A-Za-z0-9+/]/.test(s) || s.length % 4 === 1)
      throw new Error('The string to be decoded is not correctly encoded.');
    let out = '';
    let bits = 0,
      value = 0;
    for (const ch of s) {
      value = (value << 6) | B64.indexOf(ch);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out += String.fromCharCode((value >> bits) & 255);
      }
    }
    return out;
  }

  // ------------------------------------------------------------ Buffer (Node's, the common part)
  // Code written for n8n converts text with Buffer.from(text[, encoding]).toString(encoding);
  // these are the encodings it meets in practice: utf8, hex, base64(url), latin1/binary, ascii.
  /** @param {string} text @returns {number[]} */
  function utf8Bytes(text) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate, as Node encodes it
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 63));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
    }
    return out;
  }
  /** @param {Uint8Array} bytes @returns {string} */
  function utf8Text(bytes) {
    let out = '';
    for (let i = 0; i < bytes.length;) {
      const b = bytes[i];
      const need =
        b < 0x80 ? 0 : b >= 0xc2 && b < 0xe0 ? 1 : b >= 0xe0 && b < 0xf0 ? 2 : b >= 0xf0 && b < 0xf5 ? 3 : -1;
      let c = need === 0 ? b : need === 1 ? b & 31 : need === 2 ? b & 15 : b & 7;
      let ok = need >= 0;
      for (let k = 1; ok && k <= need; k++) {
        const n = bytes[i + k];
        if (n === undefined || (n & 0xc0) !== 0x80) ok = false;
        else c = (c << 6) | (n & 63);
      }
      if (ok && need >= 2 && (c < (need === 2 ? 0x800 : 0x10000) || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)))
        ok = false;
      if (!ok) {
        out += '\ufffd';
        i++;
        continue;
      }
      out += String.fromCodePoint(c);
      i += need + 1;
    }
    return out;
  }
  /** @param {unknown} encoding @returns {string} */
  function encodingOf(encoding) {
    const e = String(encoding === undefined ? 'utf8' : encoding).toLowerCase();
    if (e === 'utf-8') return 'utf8';
    if (e === 'binary') return 'latin1';
    if (['utf8', 'hex', 'base64', 'base64url', 'latin1', 'ascii'].includes(e)) return e;
    throw new TypeError('Unknown encoding: ' + encoding);
  }
  /** @param {string} text @param {string} encoding @returns {number[] | Uint8Array} */
  function bytesOf(text, encoding) {
    switch (encoding) {
      case 'utf8':
        return utf8Bytes(text);
      case 'hex': {
        const out = [];
        for (let i = 0; i + 1 < text.length; i += 2) {
          const n = parseInt(text.slice(i, i + 2), 16);
          if (isNaN(n)) break;
          out.push(n);
        }
        return out;
      }
      case 'base64':
      case 'base64url': {
        const answer = host('base64ToBytes', text, encoding);
        if (typeof answer === 'string') throw new TypeError(JSON.parse(answer.slice(1)).message);
        return new Uint8Array(answer);
      }
      default: {
        const out = [];
        for (let i = 0; i < text.length; i++) out.push(text.charCodeAt(i) & (encoding === 'ascii' ? 127 : 255));
        return out;
      }
    }
  }
  /** Bytes as one character each, built in slices (one apply over a large file would overflow the stack). @param {Uint8Array} bytes @param {number} [mask] */
  function byteText(bytes, mask) {
    let out = '';
    for (let i = 0; i < bytes.length; i += 8192) {
      const slice = Array.from(bytes.subarray(i, i + 8192));
      out += String.fromCharCode.apply(null, mask === undefined ? slice : slice.map((b) => b & mask));
    }
    return out;
  }
  class Buffer extends Uint8Array {
    static from(value, encodingOrOffset, length) {
      if (typeof value === 'string') return new Buffer(bytesOf(value, encodingOf(encodingOrOffset)));
      if (value instanceof ArrayBuffer) return new Buffer(new Uint8Array(value, encodingOrOffset || 0, length));
      if (
        value &&
        typeof value === 'object' &&
        /** @type {any} */ (value).type === 'Buffer' &&
        Array.isArray(/** @type {any} */ (value).data)
      )
        return new Buffer(/** @type {any} */ (value).data);
      if (value && typeof value === 'object' && typeof (/** @type {any} */ (value).length) === 'number')
        return new Buffer(Array.from(/** @type {ArrayLike<number>} */ (value), (n) => Number(n) & 255));
      throw new TypeError(
        'The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object.',
      );
    }
    static alloc(size, fill) {
      const b = new Buffer(Number(size));
      if (fill !== undefined) b.fill(typeof fill === 'string' ? (utf8Bytes(fill)[0] ?? 0) : Number(fill));
      return b;
    }
    static isBuffer(value) {
      return value instanceof Buffer;
    }
    static isEncoding(encoding) {
      try {
        encodingOf(encoding);
        return true;
      } catch (e) {
        return false;
      }
    }
    static byteLength(value, encoding) {
      if (typeof value !== 'string') return value.byteLength;
      return bytesOf(value, encodingOf(encoding)).length;
    }
    static concat(list, totalLength) {
      const bytes = [];
      for (const part of list) for (let i = 0; i < part.length; i++) bytes.push(part[i]);
      return new Buffer(
        totalLength === undefined
          ? bytes
          : bytes.slice(0, totalLength).concat(new Array(Math.max(0, totalLength - bytes.length)).fill(0)),
      );
    }
    toString(encoding, start, end) {
      const bytes = this.subarray(start || 0, end === undefined ? this.length : end);
      switch (encodingOf(encoding)) {
        case 'utf8':
          return utf8Text(bytes);
        case 'hex':
          return Array.from(bytes, (b) => (b < 16 ? '0' : '') + b.toString(16)).join('');
        case 'base64':
        case 'base64url': {
          const copy = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length);
          const answer = host('bytesToBase64', copy, encodingOf(encoding));
          if (answer.charCodeAt(0) === 33) throw new TypeError(JSON.parse(answer.slice(1)).message);
          return answer;
        }
        case 'ascii':
          return byteText(bytes, 127);
        default:
          return byteText(bytes);
      }
    }
    toJSON() {
      return { type: 'Buffer', data: Array.from(this) };
    }
    equals(other) {
      return this.length === other.length && this.every((b, i) => b === other[i]);
    }
    slice(start, end) {
      return this.subarray(start, end);
    }
    subarray(start, end) {
      return new Buffer(Uint8Array.prototype.slice.call(this, start, end));
    }
  }
  // Uint8Array's own species would make map/filter answer plain arrays of bytes.
  Object.defineProperty(Buffer, Symbol.species, { value: Buffer });

  // ------------------------------------------------------------ structuredClone
  function structuredClone(value, seen) {
    if (typeof value !== 'object' || value === null) {
      if (typeof value === 'function' || typeof value === 'symbol')
        throw new TypeError(String(value) + ' could not be cloned.');
      return value;
    }
    seen = seen || new Map();
    if (seen.has(value)) return seen.get(value);
    let out;
    if (value instanceof Date) out = new Date(value.getTime());
    else if (value instanceof RegExp) out = new RegExp(value.source, value.flags);
    else if (value instanceof Map) {
      out = new Map();
      seen.set(value, out);
      for (const [k, v] of value) out.set(structuredClone(k, seen), structuredClone(v, seen));
      return out;
    } else if (value instanceof Set) {
      out = new Set();
      seen.set(value, out);
      for (const v of value) out.add(structuredClone(v, seen));
      return out;
    } else if (Array.isArray(value)) {
      out = [];
      seen.set(value, out);
      for (let i = 0; i < value.length; i++) out[i] = structuredClone(value[i], seen);
      return out;
    } else {
      out = {};
      seen.set(value, out);
      for (const k of Object.keys(value)) out[k] = structuredClone(value[k], seen);
      return out;
    }
    seen.set(value, out);
    return out;
  }

  for (const [name, value] of Object.entries({ URL, URLSearchParams, btoa, atob, structuredClone, Buffer })) {
    Object.defineProperty(globalThis, name, { value, writable: true, enumerable: false, configurable: true });
  }
})();
