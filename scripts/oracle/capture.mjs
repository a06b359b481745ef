// Turns an n8n execution (GET /executions/{id}?includeData=true) and the webhook answer into a
// case in the corpus format (test/fixtures/n8n-corpus/README.md), and finds volatile paths by
// comparing two runs of the same case.

/** Keeps only the request headers the case sent, wherever a request's headers object appears. */
function trimHeaders(value, sent) {
  if (Array.isArray(value)) return value.map((v) => trimHeaders(v, sent));
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'headers' && v && typeof v === 'object' && !Array.isArray(v) && 'host' in v) {
      out[k] = Object.fromEntries(Object.entries(v).filter(([h]) => sent.has(h.toLowerCase())));
    } else out[k] = trimHeaders(v, sent);
  }
  return out;
}

function replaceBase(value, base) {
  return JSON.parse(JSON.stringify(value).split(base).join('{BASE_URL}'));
}

export function captureCase(spec, exec, response, base) {
  const sentHeaders = { ...spec.trigger.headers, ...spec.trigger.resume?.headers };
  const sent = new Set(Object.keys(sentHeaders).map((h) => h.toLowerCase()));
  const result = exec.data?.resultData ?? {};
  const runData = result.runData ?? {};
  const order = Object.entries(runData)
    .flatMap(([name, runs]) => runs.map((r) => ({ name, i: r.executionIndex })))
    .sort((a, b) => a.i - b.i)
    .map((r) => r.name);
  const nodes = {};
  for (const [name, runs] of Object.entries(runData)) {
    nodes[name] = runs.map((r) => {
      const entry = {};
      if (r.data?.main) entry.output = r.data.main.map((o) => (o ?? []).map((it) => it.json));
      if (r.error) entry.error = { message: r.error.message };
      if (r.executionStatus && r.executionStatus !== 'success') entry.executionStatus = r.executionStatus;
      return entry;
    });
  }
  const out = {
    name: spec.name,
    trigger: spec.trigger,
    status: exec.status,
    lastNodeExecuted: result.lastNodeExecuted,
    executionOrder: order,
    nodes: trimHeaders(nodes, sent),
  };
  if (result.error) out.error = { message: result.error.message, node: result.error.node?.name ?? null };
  if (response) {
    out.response = trimHeaders(response, sent);
    // n8n's error answers carry its own stack trace (paths of this machine): not behaviour.
    if (out.response.body && typeof out.response.body === 'object') delete out.response.body.stacktrace;
  }
  return replaceBase(out, base);
}

const TWO_DAYS = 2 * 24 * 3600 * 1000;
function looksLikeNow(v) {
  const now = Date.now();
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) {
    const t = Date.parse(v);
    return Number.isFinite(t) && Math.abs(t - now) < TWO_DAYS;
  }
  if (typeof v === 'number') return Math.abs(v - now) < TWO_DAYS || Math.abs(v * 1000 - now) < TWO_DAYS;
  return false;
}

/** JSON with object keys sorted, so equal values give equal text whatever their key order. */
function canonical(v) {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}

/** An array as a multiset: its elements' canonical texts, sorted. */
export const multiset = (list) => list.map(canonical).sort();

/**
 * Puts the arrays at `unorderedPaths` in their canonical order, so a random order recorded once
 * does not change the expected file at every recording (the suite compares them as multisets).
 */
export function orderUnordered(c, unorderedPaths = []) {
  for (const p of unorderedPaths) {
    const list = valueAt(c, p);
    if (!Array.isArray(list)) continue;
    const sorted = list
      .map((v) => [canonical(v), v])
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([, v]) => v);
    list.splice(0, list.length, ...sorted);
  }
  return c;
}

/**
 * Paths (JSON-pointer style, as the corpus lists them) whose value is volatile. An array at one
 * of `unorderedPaths` is compared as a multiset (a random order is not a difference).
 */
export function volatilePaths(a, b, volatileKeys = [], unorderedPaths = []) {
  const paths = [];
  const keys = new Set(volatileKeys);
  const unordered = new Set(unorderedPaths);
  const walk = (x, y, path, key) => {
    if (keys.has(key) || looksLikeNow(x)) return void paths.push(path);
    if (unordered.has(path) && Array.isArray(x) && Array.isArray(y)) {
      if (JSON.stringify(multiset(x)) !== JSON.stringify(multiset(y))) paths.push(path);
      return;
    }
    if (x && typeof x === 'object' && y && typeof y === 'object' && Array.isArray(x) === Array.isArray(y)) {
      for (const k of Object.keys(x)) walk(x[k], y[k], `${path}/${k}`, k);
      return;
    }
    if (JSON.stringify(x) !== JSON.stringify(y)) paths.push(path);
  };
  walk(a.nodes, b.nodes, '/nodes', 'nodes');
  if (a.response) walk(a.response, b.response, '/response', 'response');
  return paths;
}

// The forms a random string can take, most specific first. A value has the first form it fits;
// the suite then checks the engine's value fits that form (not that it fits no narrower one).
export const STRING_FORMATS = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  hex: /^[0-9a-f]+$/i,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
  // Random bytes as ASCII text include control characters: the whole 7-bit range.
  // eslint-disable-next-line no-control-regex
  ascii: /^[\x00-\x7f]*$/,
};

const typeName = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * The form two runs' values at a volatile path share: their type, and for strings (or arrays)
 * the length and the narrowest string format, when both runs agree on them (undefined when
 * even their types differ: then only the key is checked).
 */
export function shapeOf(x, y) {
  if (typeName(x) !== typeName(y)) return undefined;
  const shape = { type: typeName(x) };
  if ((typeof x === 'string' || Array.isArray(x)) && x.length === y.length) shape.length = x.length;
  if (typeof x === 'string') {
    const format = (v) => Object.keys(STRING_FORMATS).find((f) => STRING_FORMATS[f].test(v));
    if (format(x) && format(x) === format(y)) shape.format = format(x);
  }
  return shape;
}

/** The values at a JSON-pointer path. */
export function valueAt(c, path) {
  return path
    .split('/')
    .slice(1)
    .reduce((o, part) => o?.[part], c);
}

/** Removes the volatile values (the test only checks their keys exist). */
export function dropPaths(c, paths) {
  for (const p of paths) {
    const parts = p.split('/').slice(1);
    let o = c;
    for (const part of parts.slice(0, -1)) o = o?.[part];
    if (o && typeof o === 'object') o[parts[parts.length - 1]] = null;
  }
  return c;
}
