// The corpus README's comparison rule, as code: every difference is reported with its path.
export interface CaseExpectation {
  name: string;
  trigger: {
    kind: 'webhook' | 'manual';
    method?: string;
    path?: string;
    body?: unknown;
    raw?: string;
    rawBase64?: string;
    responseAs?: 'base64';
    headers?: Record<string, string>;
    trigger?: string;
    resume?: ResumeCall;
  };
  status: string;
  lastNodeExecuted: string;
  executionOrder: string[];
  nodes: Record<string, Array<{ output?: unknown[][]; error?: { message: string }; executionStatus?: string }>>;
  error?: { message: string; node: string | null };
  response?: RecordedAnswer & { resume?: RecordedAnswer };
  droppedVolatilePaths?: string[];
  /** Random values (dropped paths): the form n8n's had in both runs, which the engine's must have. */
  volatileShapes?: Record<string, Shape>;
  /** Arrays in random order: compared as multisets. */
  unorderedPaths?: string[];
  /** n8n refused the manual run (status, message): the engine must refuse it with a 4xx and the same message. */
  refused?: { status: number; message: string };
}

/** A second request to the resume URL the first answer gave, while the run waits (Wait on a webhook). */
export interface ResumeCall {
  method?: string;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

/** An HTTP answer as recorded; a redirect is not followed, its Location is the answer. */
export interface RecordedAnswer {
  status: number;
  contentType: string;
  body: unknown;
  location?: string;
}

export interface Shape {
  type: string;
  length?: number;
  format?: keyof typeof STRING_FORMATS;
}

// The recorder's string forms (scripts/oracle/capture.mjs), most specific first.
const STRING_FORMATS = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  hex: /^[0-9a-f]+$/i,
  base64: /^[A-Za-z0-9+/]+={0,2}$/,
  // eslint-disable-next-line no-control-regex
  ascii: /^[\x00-\x7f]*$/,
};

const typeName = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function checkShape(shape: Shape, actual: unknown, path: string, out: string[]): void {
  if (typeName(actual) !== shape.type)
    return void out.push(`${path}: expected a ${shape.type}, got ${JSON.stringify(actual)?.slice(0, 120)}`);
  const length = (actual as { length?: number }).length;
  if (shape.length !== undefined && length !== shape.length)
    out.push(`${path}: expected length ${shape.length}, got ${length} (${JSON.stringify(actual)?.slice(0, 120)})`);
  if (shape.format && !STRING_FORMATS[shape.format].test(actual as string))
    out.push(`${path}: expected a ${shape.format} string, got ${JSON.stringify(actual)?.slice(0, 120)}`);
}

/** JSON with object keys sorted, so an array's elements sort the same whatever their key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}
const byCanonical = (list: unknown[]) =>
  list
    .map((v) => ({ v, key: canonical(v) }))
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((e) => e.v);

/** How values at some paths are compared: dropped (only present), by shape, or as multisets. */
interface Rules {
  dropped: Set<string>;
  shapes: Record<string, Shape>;
  unordered: Set<string>;
}

export interface Outcome {
  problems: string[];
  warnings: string[];
}

/**
 * Deep equality by the corpus rule: dropped paths only need to exist (and have their recorded
 * shape, if any), `headers` objects compare as subsets, numbers by value, unordered arrays as
 * multisets.
 */
function compareValue(expected: unknown, actual: unknown, path: string, rules: Rules, out: string[]): void {
  const shape = rules.shapes[path];
  if (shape) return checkShape(shape, actual, path, out);
  if (rules.dropped.has(path)) return;
  if (rules.unordered.has(path) && Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length)
      out.push(`${path}: expected ${expected.length} elements, got ${actual.length}`);
    const [e, a] = [byCanonical(expected), byCanonical(actual)];
    return e.forEach((v, i) => compareValue(v, a[i], `${path}/${i} (in any order)`, rules, out));
  }
  if (typeof expected === 'number' && typeof actual === 'number') {
    if (expected !== actual && !(Number.isNaN(expected) && Number.isNaN(actual)))
      out.push(`${path}: expected ${expected}, got ${actual}`);
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    if (expected !== actual) out.push(`${path}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual))
      return void out.push(`${path}: expected an array, got ${JSON.stringify(actual)?.slice(0, 200)}`);
    if (expected.length !== actual.length)
      out.push(`${path}: expected ${expected.length} elements, got ${actual.length}`);
    expected.forEach((e, i) => compareValue(e, actual[i], `${path}/${i}`, rules, out));
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
    compareValue(e[k], a[k], p, rules, out);
  }
  if (!subset)
    for (const k of Object.keys(a))
      if (!(k in e) && a[k] !== undefined && !rules.dropped.has(`${path}/${k}`))
        out.push(`${path}/${k}: unexpected key (value ${JSON.stringify(a[k])?.slice(0, 120)})`);
}

function substituteBaseUrl<T>(value: T, baseUrl: string): T {
  return JSON.parse(JSON.stringify(value).split('{BASE_URL}').join(baseUrl));
}

interface ExecutionLike {
  status: string;
  data: {
    resultData: {
      runData: Record<
        string,
        Array<{
          executionIndex: number;
          executionStatus?: string;
          data?: { main: Array<Array<{ json: unknown }> | null> };
          error?: { message: string };
        }>
      >;
      lastNodeExecuted?: string;
      error?: { message: string; node?: { name: string } };
    };
  };
}

/** One answer against its recording: status, content type, Location, body. */
function compareAnswer(
  expected: RecordedAnswer,
  actual: RecordedAnswer,
  path: string,
  rules: Rules,
  problems: string[],
): void {
  if (actual.status !== expected.status)
    problems.push(`${path} status: expected ${expected.status}, got ${actual.status}`);
  const ct = (s: string) => s.split(';')[0].trim().toLowerCase();
  if (ct(actual.contentType) !== ct(expected.contentType))
    problems.push(`${path} contentType: expected ${expected.contentType}, got ${actual.contentType}`);
  if (actual.location !== expected.location)
    problems.push(
      `${path} location: expected ${JSON.stringify(expected.location)}, got ${JSON.stringify(actual.location)}`,
    );
  compareValue(expected.body, actual.body, `${path}/body`, rules, problems);
}

export function compareCase(
  c: CaseExpectation,
  exec: ExecutionLike,
  response: (RecordedAnswer & { resume?: RecordedAnswer }) | undefined,
  baseUrl: string,
): Outcome {
  const problems: string[] = [];
  const warnings: string[] = [];
  const expected = substituteBaseUrl(c, baseUrl);
  const rules: Rules = {
    dropped: new Set(expected.droppedVolatilePaths ?? []),
    shapes: expected.volatileShapes ?? {},
    unordered: new Set(expected.unorderedPaths ?? []),
  };
  const runData = exec.data.resultData.runData;
  if (exec.status !== expected.status) problems.push(`status: expected ${expected.status}, got ${exec.status}`);
  if (exec.data.resultData.lastNodeExecuted !== expected.lastNodeExecuted)
    problems.push(
      `lastNodeExecuted: expected ${expected.lastNodeExecuted}, got ${exec.data.resultData.lastNodeExecuted}`,
    );
  const order = Object.entries(runData)
    .flatMap(([name, runs]) => runs.map((r) => ({ name, i: r.executionIndex })))
    .sort((a, b) => a.i - b.i)
    .map((r) => r.name);
  if (JSON.stringify(order) !== JSON.stringify(expected.executionOrder))
    problems.push(`executionOrder: expected ${JSON.stringify(expected.executionOrder)}, got ${JSON.stringify(order)}`);
  for (const [node, runs] of Object.entries(expected.nodes)) {
    const ours = runData[node] ?? [];
    if (ours.length !== runs.length) problems.push(`/nodes/${node}: expected ${runs.length} runs, got ${ours.length}`);
    runs.forEach((run, r) => {
      const our = ours[r];
      if (!our) return;
      const outputs = (our.data?.main ?? []).map((o) => (o ?? []).map((it) => it.json));
      if (run.output)
        compareValue(run.output, JSON.parse(JSON.stringify(outputs)), `/nodes/${node}/${r}/output`, rules, problems);
      if (run.error) {
        if (!our.error) problems.push(`/nodes/${node}/${r}: expected an error "${run.error.message}", got none`);
        else if (our.error.message !== run.error.message)
          warnings.push(`/nodes/${node}/${r}: error message "${our.error.message}" (n8n: "${run.error.message}")`);
      }
    });
  }
  if (expected.status === 'error') {
    const failing = expected.executionOrder[expected.executionOrder.length - 1];
    // The run's failing node is the last one that recorded an error (earlier ones may have gone on under continueOnFail).
    const withError = Object.entries(runData)
      .flatMap(([name, runs]) => runs.filter((r) => r.error).map((r) => ({ name, i: r.executionIndex })))
      .sort((a, b) => b.i - a.i)[0]?.name;
    // A run n8n failed outside every node (its engine choking on a node's output) has no node
    // with an error: the engine's must have none either.
    const outsideNodes = !Object.values(expected.nodes).some((runs) => runs.some((r) => r.error));
    const expectedFailing = outsideNodes ? undefined : failing;
    if (withError !== expectedFailing) problems.push(`failing node: expected ${expectedFailing}, got ${withError}`);
    if (expected.error && exec.data.resultData.error?.message !== expected.error.message) {
      warnings.push(`error message "${exec.data.resultData.error?.message}" (n8n: "${expected.error.message}")`);
    }
  }
  if (expected.response) {
    if (!response) problems.push('response: none recorded');
    else {
      compareAnswer(expected.response, response, '/response', rules, problems);
      if (expected.response.resume && !response.resume)
        problems.push('/response/resume: the first answer gave no resume URL to call');
      else if (expected.response.resume)
        compareAnswer(expected.response.resume, response.resume!, '/response/resume', rules, problems);
      else if (response.resume) problems.push('/response/resume: n8n gave no resume URL, the engine did');
    }
  }
  return { problems, warnings };
}
