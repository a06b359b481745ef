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
  const sent = new Set(Object.keys(spec.trigger.headers ?? {}).map((h) => h.toLowerCase()));
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

/** Paths (JSON-pointer style, as the corpus lists them) whose value is volatile. */
export function volatilePaths(a, b, volatileKeys = []) {
  const paths = [];
  const keys = new Set(volatileKeys);
  const walk = (x, y, path, key) => {
    if (keys.has(key) || looksLikeNow(x)) return void paths.push(path);
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
