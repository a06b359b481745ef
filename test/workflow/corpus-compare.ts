// The corpus README's comparison rule, as code: every difference is reported with its path.
export interface CaseExpectation {
  name: string;
  trigger: { kind: 'webhook' | 'manual'; method?: string; path?: string; body?: unknown; raw?: string; headers?: Record<string, string>; trigger?: string };
  status: string;
  lastNodeExecuted: string;
  executionOrder: string[];
  nodes: Record<string, Array<{ output?: unknown[][]; error?: { message: string }; executionStatus?: string }>>;
  error?: { message: string; node: string | null };
  response?: { status: number; contentType: string; body: unknown };
  droppedVolatilePaths?: string[];
}

export interface Outcome {
  problems: string[];
  warnings: string[];
}

/** Deep equality by the corpus rule: dropped paths only need to exist, `headers` objects compare as subsets, numbers by value. */
function compareValue(expected: unknown, actual: unknown, path: string, dropped: Set<string>, out: string[]): void {
  if (dropped.has(path)) return;
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (expected !== actual && !(Number.isNaN(expected) && Number.isNaN(actual))) out.push(`${path}: expected ${expected}, got ${actual}`);
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    if (expected !== actual) out.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return void out.push(`${path}: expected an array, got ${JSON.stringify(actual)?.slice(0, 200)}`);
    if (expected.length !== actual.length) out.push(`${path}: expected ${expected.length} elements, got ${actual.length}`);
    expected.forEach((e, i) => compareValue(e, actual[i], `${path}/${i}`, dropped, out));
    return;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
    return void out.push(`${path}: expected an object, got ${JSON.stringify(actual)?.slice(0, 200)}`);
  }
  const e = expected as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const subset = path.endsWith('/headers');
  for (const k of Object.keys(e)) {
    const p = `${path}/${k}`;
    if (!(k in a)) {
      out.push(`${p}: missing`);
      continue;
    }
    compareValue(e[k], a[k], p, dropped, out);
  }
  if (!subset) for (const k of Object.keys(a)) if (!(k in e) && a[k] !== undefined && !dropped.has(`${path}/${k}`)) out.push(`${path}/${k}: unexpected key (value ${JSON.stringify(a[k])?.slice(0, 120)})`);
}

function substituteBaseUrl<T>(value: T, baseUrl: string): T {
  return JSON.parse(JSON.stringify(value).split('{BASE_URL}').join(baseUrl));
}

interface ExecutionLike {
  status: string;
  data: { resultData: { runData: Record<string, Array<{ executionIndex: number; executionStatus?: string; data?: { main: Array<Array<{ json: unknown }> | null> }; error?: { message: string } }>>; lastNodeExecuted?: string; error?: { message: string; node?: { name: string } } } };
}

export function compareCase(c: CaseExpectation, exec: ExecutionLike, response: { status: number; contentType: string; body: unknown } | undefined, baseUrl: string): Outcome {
  const problems: string[] = [];
  const warnings: string[] = [];
  const expected = substituteBaseUrl(c, baseUrl);
  const dropped = new Set(expected.droppedVolatilePaths ?? []);
  const runData = exec.data.resultData.runData;
  if (exec.status !== expected.status) problems.push(`status: expected ${expected.status}, got ${exec.status}`);
  if (exec.data.resultData.lastNodeExecuted !== expected.lastNodeExecuted) problems.push(`lastNodeExecuted: expected ${expected.lastNodeExecuted}, got ${exec.data.resultData.lastNodeExecuted}`);
  const order = Object.entries(runData)
    .flatMap(([name, runs]) => runs.map((r) => ({ name, i: r.executionIndex })))
    .sort((a, b) => a.i - b.i)
    .map((r) => r.name);
  if (JSON.stringify(order) !== JSON.stringify(expected.executionOrder)) problems.push(`executionOrder: expected ${JSON.stringify(expected.executionOrder)}, got ${JSON.stringify(order)}`);
  for (const [node, runs] of Object.entries(expected.nodes)) {
    const ours = runData[node] ?? [];
    if (ours.length !== runs.length) problems.push(`/nodes/${node}: expected ${runs.length} runs, got ${ours.length}`);
    runs.forEach((run, r) => {
      const our = ours[r];
      if (!our) return;
      const outputs = (our.data?.main ?? []).map((o) => (o ?? []).map((it) => it.json));
      if (run.output) compareValue(run.output, JSON.parse(JSON.stringify(outputs)), `/nodes/${node}/${r}/output`, dropped, problems);
      if (run.error) {
        if (!our.error) problems.push(`/nodes/${node}/${r}: expected an error "${run.error.message}", got none`);
        else if (our.error.message !== run.error.message) warnings.push(`/nodes/${node}/${r}: error message "${our.error.message}" (n8n: "${run.error.message}")`);
      }
    });
  }
  if (expected.status === 'error') {
    const failing = expected.executionOrder[expected.executionOrder.length - 1];
    const withError = Object.entries(runData).find(([, runs]) => runs.some((r) => r.error))?.[0];
    if (withError !== failing) problems.push(`failing node: expected ${failing}, got ${withError}`);
    if (expected.error && exec.data.resultData.error?.message !== expected.error.message) {
      warnings.push(`error message "${exec.data.resultData.error?.message}" (n8n: "${expected.error.message}")`);
    }
  }
  if (expected.response) {
    if (!response) problems.push('response: none recorded');
    else {
      if (response.status !== expected.response.status) problems.push(`response status: expected ${expected.response.status}, got ${response.status}`);
      const ct = (s: string) => s.split(';')[0]!.trim().toLowerCase();
      if (ct(response.contentType) !== ct(expected.response.contentType)) problems.push(`response contentType: expected ${expected.response.contentType}, got ${response.contentType}`);
      compareValue(expected.response.body, response.body, '/response/body', dropped, problems);
    }
  }
  return { problems, warnings };
}
