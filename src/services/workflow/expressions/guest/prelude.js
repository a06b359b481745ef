// The prelude: JavaScript that runs INSIDE each QuickJS context once, when the context is
// created (after intl.js and web.js, before the extensions and harden.js).
// It builds n8n's variables ($json, $input, $('Node'), $node, $now …) on top of one host
// function, `__hamletHost(op, a, b, c)`, which answers with JSON text, undefined, or '!'
// followed by the JSON of an error — nothing else: no host object ever enters the sandbox.
//
// Per-run state lives in closure variables that `__hamlet.begin` creates afresh at the start
// of every run (one resolve() call, one Code run, one nested evaluation): values read from
// the host are memoised in the run's own memo, so an expression that reads $json five times
// fetches it once, and no run can ever be handed another run's memo (there is no key to
// collide: a run's state is created by its begin and dropped by the next begin).

(function () {
  'use strict';
  const G = globalThis;
  const host = G.__hamletHost;
  delete G.__hamletHost;

  const RealDate = Date;
  const jsonParse = JSON.parse;
  const jsonStringify = JSON.stringify;

  // ---------------------------------------------------------------- errors
  class ExpressionError extends Error {
    constructor(message, description) {
      super(message);
      // Enumerable, so that it survives the trip out of the sandbox (QuickJS dumps an error's
      // name, message, stack and enumerable own properties), as on n8n's ExpressionError.
      if (description !== undefined) this.description = description;
    }
  }
  Object.defineProperty(ExpressionError.prototype, 'name', {
    value: 'ExpressionError',
    writable: true,
    configurable: true,
  });

  // ---------------------------------------------------------------- run state
  const state = {
    itemIndex: 0,
    runIndex: 0,
    nowMs: 0,
    /** How far timers moved the clock ahead of real time in this run. */
    skippedMs: 0,
    timezone: 'UTC',
    mode: 'expression',
    items: undefined,
    assigned: {},
    item: undefined,
  };
  let memo = new Map();
  const logs = [];
  let logBytes = 0;
  const LOG_LIMIT_BYTES = 64 * 1024;
  const LOG_LIMIT_LINES = 200;

  function call(op, a, b, c, d) {
    const answer = host(op, a, b, c, d);
    if (answer === undefined) return undefined;
    if (answer.charCodeAt(0) === 33) {
      const error = jsonParse(answer.slice(1));
      if (error.kind === 'RangeError') throw new RangeError(error.message);
      if (error.kind === 'TypeError') throw new TypeError(error.message);
      throw new ExpressionError(error.message, error.description);
    }
    return jsonParse(answer);
  }
  function remember(key, compute) {
    if (memo.has(key)) return memo.get(key);
    const value = compute();
    memo.set(key, value);
    return value;
  }

  // ---------------------------------------------------------------- items
  function inputAt(index) {
    return remember('in:' + index, () => call('inputItem', index));
  }
  function inputAll() {
    return remember('in:all', () => {
      const count = call('inputCount');
      const all = [];
      for (let i = 0; i < count; i++) all.push(inputAt(i));
      return all;
    });
  }
  const $input = Object.freeze({
    get item() {
      return inputAt(state.itemIndex);
    },
    first() {
      const all = inputAll();
      return all[0];
    },
    last() {
      const all = inputAll();
      return all[all.length - 1];
    },
    all() {
      return inputAll();
    },
    get params() {
      return remember('params:self', () => call('nodeParams', ''));
    },
    get context() {
      return nodeContext('');
    },
  });

  // '' is the current node.
  function nodeContext(name) {
    return remember('context:' + name, () => call('nodeContext', name));
  }
  function nodeAll(name, branch, run) {
    // -1: the branch this node descends from (the host works it out), as n8n defaults it.
    const b = branch === undefined ? -1 : Number(branch);
    const r = run === undefined ? -1 : Number(run);
    return remember('node:' + name + ':' + b + ':' + r, () => call('nodeAll', name, b, r));
  }
  function nodeAccessor(name) {
    name = String(name);
    return remember('acc:' + name, () => {
      call('nodeExists', name);
      return Object.freeze({
        get item() {
          return remember('pair:' + name + ':' + state.itemIndex, () => call('nodePaired', name, state.itemIndex));
        },
        itemMatching(index) {
          return remember('pair:' + name + ':' + Number(index), () => call('nodePaired', name, Number(index)));
        },
        pairedItem(index) {
          return this.itemMatching(index === undefined ? state.itemIndex : index);
        },
        first(branch, run) {
          return nodeAll(name, branch, run)[0];
        },
        last(branch, run) {
          const all = nodeAll(name, branch, run);
          return all[all.length - 1];
        },
        all(branch, run) {
          return nodeAll(name, branch, run);
        },
        get isExecuted() {
          return remember('ran:' + name, () => call('nodeExecuted', name));
        },
        get params() {
          return remember('params:' + name, () => call('nodeParams', name));
        },
        get context() {
          return nodeContext(name);
        },
        get runIndex() {
          return state.runIndex;
        },
      });
    });
  }
  function $(name) {
    return nodeAccessor(name);
  }

  // $node["X"]: the legacy form, the item at the same index.
  // index: the item index to read (the current one unless $item(i) chose another).
  function legacyNode(name, index) {
    const at = () => (index === undefined ? state.itemIndex : index);
    return Object.freeze({
      get json() {
        const item = legacyItem(name, at());
        return item && item.json;
      },
      get binary() {
        const item = legacyItem(name, at());
        return item && item.binary;
      },
      get parameter() {
        return remember('params:' + name, () => call('nodeParams', name));
      },
      get context() {
        return nodeContext(name);
      },
      get runIndex() {
        return state.runIndex;
      },
    });
  }
  function legacyItem(name, index) {
    return remember('legacy:' + name + ':' + index, () => call('nodeLegacy', name, index));
  }
  function nodeProxy(index) {
    return new Proxy(Object.freeze({}), {
      get(target, key) {
        return typeof key === 'string' ? legacyNode(key, index) : undefined;
      },
      has() {
        return true;
      },
      set() {
        return false;
      },
      defineProperty() {
        return false;
      },
      deleteProperty() {
        return false;
      },
    });
  }
  const $node = nodeProxy(undefined);
  // $item(i): the legacy way to read another item index, e.g. $item(0).$node["X"].json.
  function $item(index) {
    const i = Number(index);
    return Object.freeze({
      get $json() {
        const item = inputAt(i);
        return item && item.json;
      },
      get $binary() {
        const item = inputAt(i);
        return item && item.binary;
      },
      get $node() {
        return nodeProxy(i);
      },
      get $itemIndex() {
        return i;
      },
    });
  }
  function $items(name, branch, run) {
    if (name === undefined) return inputAll();
    return nodeAll(name, branch, run);
  }

  // ---------------------------------------------------------------- context variables
  function ctx() {
    return remember('ctx', () => call('context'));
  }
  // n8n 2.x blocks $env by default. Expressions fail with "access to env vars denied"; in a Code
  // node n8n 2.8.4's task runner fails while renaming that error and reports this text instead
  // (recorded from real n8n: corpus case leadpilot-cold-email). We give the text n8n gives, so a
  // client comparing with n8n sees the same, and put n8n's guidance in the description.
  const ENV_DENIED_IN_CODE = "Cannot assign to read only property 'name' of object 'Error: access to env vars denied'";
  const ENV_DENIED_HINT =
    'If you need access please contact the administrator to remove the environment variable N8N_BLOCK_ENV_ACCESS_IN_NODE';
  function env() {
    const value = remember('env', () => call('env'));
    if (value === null) {
      throw new ExpressionError(
        state.mode === 'code' ? ENV_DENIED_IN_CODE : 'access to env vars denied',
        ENV_DENIED_HINT,
      );
    }
    return value;
  }

  // $execution, with n8n's customData API (set/get/setAll/getAll); changes go back to the host
  // after a Code run, like static data. The data itself reads as a plain record.
  function execution() {
    const base = ctx().execution;
    const custom = Object.assign({}, base.customData || {});
    const setOne = (key, value) => {
      const k = String(key);
      if (k.length > 50) throw new ExpressionError('Custom data key is longer than 50 characters: ' + k);
      if (!(k in custom) && Object.keys(custom).length >= 10)
        throw new ExpressionError('Custom data can hold at most 10 items');
      const v = String(value);
      if (v.length > 255) throw new ExpressionError('Custom data value for "' + k + '" is longer than 255 characters');
      custom[k] = v;
      memo.set('customData:dirty', true);
    };
    const methods = {
      set(key, value) {
        setOne(key, value);
      },
      get(key) {
        return custom[String(key)];
      },
      setAll(values) {
        for (const k of Object.keys(values || {})) setOne(k, values[k]);
      },
      getAll() {
        return Object.assign({}, custom);
      },
    };
    for (const name of Object.keys(methods))
      Object.defineProperty(custom, name, { value: methods[name], enumerable: false });
    memo.set('customData', custom);
    return Object.assign({}, base, { customData: custom });
  }

  // ---------------------------------------------------------------- helpers
  function isEmptyValue(v) {
    if (v === undefined || v === null || v === '') return true;
    if (Array.isArray(v)) return v.length === 0;
    if (typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) return Object.keys(v).length === 0;
    return false;
  }
  function $ifEmpty(value, fallback) {
    if (arguments.length !== 2)
      throw new ExpressionError('expected two arguments (value, defaultValue) for this function');
    return isEmptyValue(value) ? fallback : value;
  }
  function $if(condition, whenTrue, whenFalse) {
    if (arguments.length < 2 || arguments.length > 3)
      throw new ExpressionError(
        'expected two or three arguments (condition, valueIfTrue, valueIfFalse) for this function',
      );
    return condition ? whenTrue : whenFalse;
  }
  function $evaluateExpression(expression, itemIndex) {
    return call('evaluate', String(expression), itemIndex === undefined ? state.itemIndex : Number(itemIndex)).v;
  }
  function $min() {
    return Math.min.apply(null, arguments);
  }
  function $max() {
    return Math.max.apply(null, arguments);
  }

  // ---------------------------------------------------------------- clock
  // The injectable clock: Date and Date.now() read the run's "now" (plus the time the run has
  // taken so far, so that loops waiting on the clock still end).
  function clockNow() {
    return state.nowMs + (host('elapsed') | 0) + state.skippedMs;
  }
  function HamletDate(...args) {
    if (!new.target) return new RealDate(clockNow()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [clockNow()] : args, new.target);
  }
  Object.setPrototypeOf(HamletDate, RealDate);
  HamletDate.prototype = RealDate.prototype;
  Object.defineProperty(RealDate.prototype, 'constructor', { value: HamletDate, writable: true, configurable: true });
  HamletDate.now = function now() {
    return clockNow();
  };
  HamletDate.parse = RealDate.parse;
  HamletDate.UTC = RealDate.UTC;
  Object.defineProperty(G, 'Date', { value: HamletDate, writable: true, configurable: true });

  // ---------------------------------------------------------------- libraries (loaded lazily)
  // The host evaluates a library's loader and hands it to installLibrary below.
  const libraries = Object.create(null);
  let luxon;
  function library(name) {
    if (!libraries[name]) call('loadLibrary', name);
    if (!libraries[name]) throw new ExpressionError(name + ' failed to load');
    return libraries[name];
  }
  function installLibrary(name, loader) {
    if (libraries[name]) return;
    libraries[name] = loader(api);
    if (name === 'luxon') {
      luxon = libraries[name];
      configureLuxon();
    }
  }
  // Luxon keeps caches of mutable objects (locales, zones) that a run could tamper with; after
  // a run that touched Luxon they are dropped, so the next run builds its own.
  let luxonUsed = false;
  function lux() {
    luxonUsed = true;
    return luxon || library('luxon');
  }
  function $jmespath(data, expression) {
    if (typeof expression !== 'string') throw new ExpressionError('$jmespath expects (object, searchString)');
    return library('jmespath').search(data, expression);
  }
  function configureLuxon() {
    const S = luxon.Settings;
    S.defaultLocale = 'en-US';
    S.defaultZone = state.timezone;
    S.now = () => clockNow();
    S.throwOnInvalid = false;
  }
  function isDateTime(v) {
    return !!luxon && luxon.DateTime.isDateTime(v);
  }

  // ---------------------------------------------------------------- timers
  // Timers run on a virtual clock: when the code has nothing else to do but wait for one,
  // the clock jumps to it (the run is limited in time, so a real wait could only fail). The
  // code sees the time pass: Date.now() moves by the skipped interval. Timers still pending
  // when the run ends are dropped, like the run's other leftovers.
  let timers = [];
  let timerSeq = 0;
  function addTimer(fn, ms, args, repeat) {
    if (typeof fn !== 'function') throw new TypeError('The "callback" argument must be of type function');
    const delay = Math.max(0, Number(ms) || 0);
    const id = ++timerSeq;
    timers.push({ id, due: clockNow() + delay, delay, fn, args, repeat });
    return id;
  }
  function setTimeout(fn, ms, ...args) {
    return addTimer(fn, ms, args, false);
  }
  function setInterval(fn, ms, ...args) {
    return addTimer(fn, ms, args, true);
  }
  function clearTimer(id) {
    timers = timers.filter((t) => t.id !== id);
  }
  function queueMicrotask(fn) {
    Promise.resolve().then(fn);
  }
  // Runs the earliest timer; false when there is none.
  function runTimer() {
    if (timers.length === 0) return false;
    let next = timers[0];
    for (const t of timers) if (t.due < next.due || (t.due === next.due && t.id < next.id)) next = t;
    const now = clockNow();
    if (next.due > now) state.skippedMs += next.due - now;
    if (next.repeat) next.due = clockNow() + Math.max(1, next.delay);
    else clearTimer(next.id);
    next.fn.apply(undefined, next.args);
    return true;
  }

  // ---------------------------------------------------------------- console (captured, bounded)
  function formatLog(args) {
    return args
      .map((a) => {
        if (typeof a === 'string') return a;
        try {
          return jsonStringify(a) === undefined ? String(a) : jsonStringify(a);
        } catch (e) {
          return String(a);
        }
      })
      .join(' ');
  }
  function log(level) {
    return function () {
      if (logs.length >= LOG_LIMIT_LINES || logBytes >= LOG_LIMIT_BYTES) return;
      let line = formatLog(Array.prototype.slice.call(arguments));
      if (line.length > 4096) line = line.slice(0, 4096) + '…';
      logBytes += line.length;
      logs.push(level + ' ' + line);
    };
  }
  const hamletConsole = Object.freeze({
    log: log('log'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    debug: log('debug'),
  });

  function requireModule(name) {
    const e = new Error("Module '" + String(name) + "' is disallowed");
    throw e;
  }

  // ---------------------------------------------------------------- static data
  function $getWorkflowStaticData(type) {
    if (type !== 'global' && type !== 'node')
      throw new Error('The type "' + type + '" is not valid for static data. Use "global" or "node".');
    return remember('static:' + type, () => {
      const data = call('staticData', type) || {};
      memo.set('static:dirty', true);
      return data;
    });
  }

  // ---------------------------------------------------------------- this.helpers (Code node)
  // n8n's Code node offers its file helpers on `this.helpers`: read an input item's file as a
  // Buffer, and describe new bytes as a file (the MIME tables are the host's, through codec).
  const GuestBuffer = G.Buffer;
  function inputFile(itemIndex, propertyName) {
    const item = inputAt(Number(itemIndex));
    const entry = item && item.binary ? item.binary[String(propertyName)] : undefined;
    // n8n 2.8.4's Code node fails here with an error that has no message (`e.message` is undefined).
    if (!entry) throw Object.assign(new Error(), { message: undefined });
    return entry;
  }
  function asBuffer(value) {
    if (GuestBuffer.isBuffer(value)) return value;
    if (typeof value === 'string' || value instanceof ArrayBuffer || ArrayBuffer.isView(value) || Array.isArray(value))
      return GuestBuffer.from(value);
    throw new TypeError('The binary data must be a Buffer');
  }
  const helpers = Object.freeze({
    async getBinaryDataBuffer(itemIndex, propertyName) {
      const entry = inputFile(itemIndex, propertyName);
      return GuestBuffer.from(typeof entry.data === 'string' ? entry.data : '', 'base64');
    },
    assertBinaryData(itemIndex, propertyName) {
      const item = inputAt(Number(itemIndex));
      // One message for no files and for not this file, as n8n 2.8.4's Code node has it.
      const entry = item && item.binary ? item.binary[String(propertyName)] : undefined;
      if (!entry)
        throw new Error(
          "This operation expects the node's input data to contain a binary file '" +
            propertyName +
            "', but none was found [item " +
            itemIndex +
            ']',
        );
      return entry;
    },
    async prepareBinaryData(data, filePath, mimeType) {
      const bytes = asBuffer(data);
      const described = jsonParse(
        call(
          'codec',
          'describeFile',
          jsonStringify({ head: bytes.subarray(0, 16).toString('base64'), size: bytes.length, filePath, mimeType }),
        ),
      );
      return Object.assign({ data: bytes.toString('base64') }, described);
    },
    async setBinaryDataBuffer(binaryData, buffer) {
      const bytes = asBuffer(buffer);
      return Object.assign(binaryData, { data: bytes.toString('base64') });
    },
    async binaryToBuffer(body) {
      return asBuffer(body);
    },
    async binaryToString(body, encoding) {
      return asBuffer(body).toString(encoding === undefined ? 'utf8' : encoding);
    },
    returnJsonArray(value) {
      const list = Array.isArray(value) ? value : [value];
      return list.map((json) => (json && typeof json === 'object' && 'json' in json ? json : { json }));
    },
  });
  // What `this` is in a Code node's code.
  const codeThis = Object.freeze({ helpers });

  // ---------------------------------------------------------------- globals
  const accessors = {
    $json: () => {
      const item = inputAt(state.itemIndex);
      return item && item.json;
    },
    $data: () => {
      const item = inputAt(state.itemIndex);
      return item && item.json;
    },
    $binary: () => {
      const item = inputAt(state.itemIndex);
      return item && item.binary;
    },
    $input: () => $input,
    $node: () => $node,
    $itemIndex: () => state.itemIndex,
    $runIndex: () => state.runIndex,
    $workflow: () => ctx().workflow,
    $execution: () => remember('execution', execution),
    $prevNode: () => ctx().prevNode,
    $env: () => env(),
    $vars: () => remember('vars', () => Object.freeze(call('vars'))),
    $secrets: () => ({}),
    $parameter: () => remember('params:self', () => call('nodeParams', '')),
    $mode: () => ctx().execution.mode,
    // Only where a node adds them (HTTP Request pagination); undefined elsewhere.
    $response: () => ctx().additionalKeys.$response,
    $pageCount: () => ctx().additionalKeys.$pageCount,
    $request: () => ctx().additionalKeys.$request,
    $now: () => remember('now', () => lux().DateTime.fromMillis(state.nowMs)),
    $today: () => remember('today', () => lux().DateTime.fromMillis(state.nowMs).startOf('day')),
    DateTime: () => lux().DateTime,
    Duration: () => lux().Duration,
    Interval: () => lux().Interval,
    items: () =>
      'items' in state.assigned ? state.assigned.items : state.items === undefined ? undefined : state.items(),
    item: () => ('item' in state.assigned ? state.assigned.item : state.item === undefined ? undefined : state.item()),
  };
  // Code may reassign `items` (Function, Code v1) or `item` (Function Item) and return it, as in
  // n8n where they are plain variables; the other names ignore assignment.
  const assignable = new Set(['items', 'item']);
  for (const name of Object.keys(accessors)) {
    const set = assignable.has(name)
      ? (value) => {
          state.assigned[name] = value;
        }
      : () => {};
    Object.defineProperty(G, name, { get: accessors[name], set, enumerable: false, configurable: false });
  }
  const functions = {
    $,
    $items,
    $item,
    $ifEmpty,
    $if,
    $min,
    $max,
    $getWorkflowStaticData,
    $evaluateExpression,
    setTimeout,
    setInterval,
    clearTimeout: clearTimer,
    clearInterval: clearTimer,
    queueMicrotask,
    require: requireModule,
    $jmespath,
  };
  for (const name of Object.keys(functions)) {
    Object.defineProperty(G, name, { value: functions[name], writable: false, enumerable: false, configurable: false });
  }
  Object.defineProperty(G, 'console', { value: hamletConsole, writable: true, enumerable: false, configurable: true });

  // ---------------------------------------------------------------- results
  // How a value leaves the sandbox: one string, tagged by its first character.
  function encode(v) {
    if (v === undefined) return 'u';
    if (typeof v === 'number') return Number.isFinite(v) ? 'j' + jsonStringify(v) : 'n' + String(v);
    if (typeof v === 'function') return 'f' + (isDateTimeClass(v) ? 'DateTime' : v.name || '');
    if (typeof v === 'bigint' || typeof v === 'symbol') return 'j' + jsonStringify(String(v));
    if (isDateTime(v)) return 'j' + jsonStringify(v.toISO());
    const text = jsonStringify(v);
    return text === undefined ? 'u' : 'j' + text;
  }
  function isDateTimeClass(v) {
    return !!luxon && v === luxon.DateTime;
  }
  // One segment of a template with text around it, as n8n's interpolation renders it:
  // String() of the value, nothing for null and undefined (so an array joins with commas and
  // an object is "[object Object]", as n8n users see; a DateTime is its ISO text).
  function toText(v) {
    return v === undefined || v === null ? '' : String(v);
  }
  // A segment that throws yields no value, as in n8n, unless the error is one of ours.
  // Calling an extension method on a missing value is the exception: n8n reports it.
  const extensionNames = new Set();
  const MISSING_RECEIVER = /^cannot read property '([^']+)' of (undefined|null)$/;
  function segment(fn) {
    try {
      return fn();
    } catch (e) {
      if (e instanceof ExpressionError) throw e;
      if (e instanceof InternalError) throw e;
      const missing = e instanceof TypeError && MISSING_RECEIVER.exec(e.message);
      if (missing && extensionNames.has(missing[1])) {
        throw new ExpressionError(
          missing[1] + '() could not be called on "' + missing[2] + '" type',
          'You are trying to access a field that does not exist, modify your expression or set a default value',
        );
      }
      return undefined;
    }
  }

  // Globals a run added (sloppy-mode assignments) are removed so runs cannot see each other.
  // False when one cannot be removed (defined non-configurable): the host then discards the
  // whole context after this run.
  let baseline;
  function cleanGlobals() {
    const names = Object.getOwnPropertyNames(G);
    if (names.length === baseline.size) return true;
    let clean = true;
    for (const name of names) {
      if (baseline.has(name)) continue;
      try {
        delete G[name];
      } catch (e) {
        clean = false;
      }
    }
    return clean;
  }

  /** @type {HamletApi} */
  const api = {
    begin(itemIndex, runIndex, nowMs, timezone, mode) {
      memo = new Map();
      state.itemIndex = itemIndex;
      state.runIndex = runIndex;
      state.nowMs = nowMs;
      state.mode = mode;
      state.skippedMs = 0;
      logs.length = 0;
      logBytes = 0;
      timers = [];
      state.items = undefined;
      state.item = undefined;
      state.assigned = {};
      state.timezone = timezone;
      if (luxon) {
        if (luxonUsed) luxon.Settings.resetCaches();
        luxonUsed = false;
        configureLuxon();
      }
    },
    // Evaluates a compiled template function; single: keep the type, else join as text.
    // A leading '~' tells the host that globals could not be cleaned (see cleanGlobals).
    template(fn, single) {
      let encoded;
      try {
        const parts = fn(segment);
        if (single) encoded = encode(parts[0]);
        else {
          let text = '';
          for (const part of parts) text += typeof part === 'string' ? part : toText(part.v);
          // As JSON: strings cross as C strings, and a raw NUL would cut them short.
          encoded = 'j' + jsonStringify(text);
        }
      } finally {
        if (!cleanGlobals()) encoded = '~' + (encoded === undefined ? 'u' : encoded);
      }
      return encoded;
    },
    encode,
    call(fn) {
      return fn.call(codeThis);
    },
    runTimer,
    cleanGlobals,
    logs() {
      const out = logs.splice(0, logs.length);
      logBytes = 0;
      return jsonStringify(out);
    },
    setItems(kind) {
      if (kind === 'all' || kind === 'eachItem') state.items = () => inputAll();
      if (kind === 'item')
        state.item = () => {
          const it = inputAt(state.itemIndex);
          return it && it.json;
        };
      // The Code node's each-item mode: `item` is the item itself, as a copy ($input.item is not it: observed).
      if (kind === 'eachItem')
        state.item = () =>
          remember('item:' + state.itemIndex, () => {
            const it = inputAt(state.itemIndex);
            return it && JSON.parse(JSON.stringify(it));
          });
    },
    inputAt,
    inputAll,
    customData() {
      if (!memo.get('customData:dirty')) return 'u';
      return 'j' + jsonStringify(memo.get('customData'));
    },
    staticData() {
      if (!memo.get('static:dirty')) return 'u';
      return 'j' + jsonStringify({ global: memo.get('static:global'), node: memo.get('static:node') });
    },
    ExpressionError,
    codec(operation, text, option) {
      return call('codec', operation, text, option);
    },
    lux,
    installLibrary,
    registerExtension(name) {
      extensionNames.add(name);
    },
    isDateTime,
    isEmptyValue,
    finishBaseline() {
      baseline = new Set(Object.getOwnPropertyNames(G));
    },
  };
  // The host takes a handle to this and removes the global before user code runs.
  Object.defineProperty(G, '__hamlet', {
    value: Object.freeze(api),
    writable: false,
    enumerable: false,
    configurable: true,
  });
})();
