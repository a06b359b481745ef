// Random node parameters from n8n's own node description (n8n-nodes-base's dist/types/nodes.json):
// every property whose displayOptions show it for the values chosen so far (and the node's
// version) may be set; options, booleans, numbers, collections, fixed collections, filters and
// assignments get random valid values; strings get values by what the property is for (a field
// name, a date, a format, code, a literal or an expression reading the item).
import type { Rng } from './rng.js';
import { DATES, fieldRef, literal, type Json } from './values.js';

export interface Property {
  name: string;
  type: string;
  default?: unknown;
  displayName?: string;
  options?: Array<Property & { value?: unknown; values?: Property[] }>;
  values?: Property[];
  displayOptions?: { show?: Record<string, unknown[]>; hide?: Record<string, unknown[]> };
  typeOptions?: Record<string, any>;
  requiresDataPath?: string;
}

export interface NodeDescription {
  name: string;
  version: number | number[];
  properties: Property[];
}

type Params = Record<string, any>;

/** Values a fuzzed run must not pick: their output is random or the clock's, not behaviour. */
const UNSTABLE: Record<string, Record<string, unknown[]>> = {
  sort: { type: ['random'] },
  // Item Lists' sort: random likewise; and n8n 2.8.4 tests its code for `return` with a regular
  // expression whose /g state outlives the run, so the same code sort passes or fails
  // ("Sort code doesn't return…") by what the n8n process ran before, not by the case.
  itemLists: { type: ['random', 'code'] },
  dateTime: { operation: ['getCurrentDate'], action: [] },
  merge: { mode: ['combineBySql'] },
  // Not implemented by the engine (listed in docs/workflow.md), or needing a stored credential.
  html: { operation: ['generateHtmlTemplate'] },
  crypto: { action: ['generate', 'sign'] },
};

/** Values the case's shape fixes: the workflow wires two inputs into Merge. */
const FIXED: Record<string, Record<string, unknown>> = { merge: { numberInputs: 2 }, code: { language: 'javaScript' } };

interface Ctx {
  rng: Rng;
  node: string;
  version: number;
  root: Params;
}

function condMatches(want: unknown, actual: unknown): boolean {
  if (want && typeof want === 'object' && '_cnd' in want) {
    const [[op, v]] = Object.entries((want as { _cnd: Record<string, any> })._cnd);
    const a = actual as any;
    switch (op) {
      case 'eq':
        return a === v;
      case 'not':
        return a !== v;
      case 'gte':
        return a >= v;
      case 'lte':
        return a <= v;
      case 'gt':
        return a > v;
      case 'lt':
        return a < v;
      case 'between':
        return a >= v.from && a <= v.to;
      case 'startsWith':
        return typeof a === 'string' && a.startsWith(v);
      case 'endsWith':
        return typeof a === 'string' && a.endsWith(v);
      case 'includes':
        return typeof a === 'string' && a.includes(v);
      case 'exists':
        return a !== undefined;
      default:
        return false;
    }
  }
  return want === actual;
}

function valueOf(key: string, level: Params, levelProps: Property[], ctx: Ctx): unknown {
  if (key === '@version') return ctx.version;
  if (key.startsWith('/')) {
    const path = key.slice(1).split('.');
    let v: any = ctx.root;
    for (const p of path) v = v?.[p];
    return v ?? defaultFor(path[0], ctx);
  }
  if (key in level) return level[key];
  return levelProps.find((p) => p.name === key && p.default !== undefined)?.default;
}

let topProps: Property[] = [];
function defaultFor(name: string, ctx: Ctx): unknown {
  return topProps.find((p) => p.name === name && visible(p, ctx.root, topProps, ctx))?.default;
}

function visible(p: Property, level: Params, levelProps: Property[], ctx: Ctx): boolean {
  const show = p.displayOptions?.show ?? {};
  const hide = p.displayOptions?.hide ?? {};
  for (const [k, wants] of Object.entries(show))
    if (!wants.some((w) => condMatches(w, valueOf(k, level, levelProps, ctx)))) return false;
  for (const [k, wants] of Object.entries(hide))
    if (wants.some((w) => condMatches(w, valueOf(k, level, levelProps, ctx)))) return false;
  return true;
}

/** The properties of one level, in order; each name set at most once (the first one shown). */
function fillLevel(props: Property[], ctx: Ctx, level: Params, include: (p: Property) => boolean): Params {
  for (const p of props) {
    if (p.name in level || ['notice', 'hidden', 'button', 'callout', 'curlImport'].includes(p.type)) continue;
    if (!visible(p, level, props, ctx) || !include(p)) continue;
    const v = valueFor(p, ctx);
    if (v !== undefined) level[p.name] = v;
  }
  return level;
}

function choices(p: Property, ctx: Ctx): unknown[] {
  const banned = UNSTABLE[ctx.node]?.[p.name] ?? [];
  return (p.options ?? []).map((o) => o.value).filter((v) => v !== undefined && !banned.includes(v));
}

const CODE_ALL = [
  'return $input.all().map((i) => ({ json: { ...i.json, keys: Object.keys(i.json).length } }));',
  'return $input.all();',
  'return $input.all().filter((i) => i.json.age > 20);',
  'return [{ json: { count: $input.all().length, first: $input.first().json.name ?? null } }];',
  'return { json: { x: 1 } };',
  'return $input.all().map((i) => i.json);',
  'throw new Error("boom");',
  'return null;',
  'return [1, 2];',
  'return $input.all().map((i) => ({ json: { t: typeof i.json.when, n: Number(i.json.age) } }));',
];
const CODE_EACH = [
  'return $json;',
  '$json.seen = true;\nreturn $json;',
  'return { json: { name: String($json.name).toUpperCase() } };',
  'return [$json, $json];',
  'return $input.item;',
  'return { up: $json.city ?? null, i: $itemIndex };',
  'return null;',
];
const FUNCTION = [
  'return items;',
  'return items.map((i) => ({ json: { k: Object.keys(i.json) } }));',
  'items[0].json.x = 1;\nreturn items;',
  'return [];',
  'return { json: { n: items.length } };',
];
const FUNCTION_ITEM = [
  'item.copy = item.name;\nreturn item;',
  'return item;',
  'return { a: item.age };',
  'item = { only: true };\nreturn item;',
  'return [];',
];
const FORMATS = [
  'yyyy-MM-dd',
  'dd/MM/yyyy HH:mm',
  'X',
  'x',
  'YYYY-MM-DD',
  'MMMM Do YYYY',
  'EEE, d MMM yyyy',
  "yyyy-MM-dd'T'HH:mm:ssZZ",
  'LLL',
  'q',
  '',
];
const ZONES = ['UTC', 'America/New_York', 'Europe/Paris', 'Asia/Kolkata', 'Pacific/Chatham'];
const SELECTORS = ['p', 'a', 'li', 'h1', 'p, h1', 'ul > li', 'b', 'div'];
const REGEXES = ['^a', 'a', '(\\d+)', '^$', '.*', '[', 'é', '/A/i'];
const SEPARATORS = [',', ', ', '\n', '', ' ', ';', '|'];

const expr = (ctx: Ctx, field = fieldRef(ctx.rng)) =>
  `={{ $json${/^[a-z]+$/i.test(field) ? `.${field}` : `[${JSON.stringify(field)}]`} }}`;

function fieldList(ctx: Ctx, multiple: boolean): string {
  if (!multiple) return fieldRef(ctx.rng);
  return ctx.rng
    .subset(['name', 'city', 'age', 'tags', 'id', 'nested.x', 'a.b', 'missing'], 0.3, 1)
    .join(ctx.rng.pick([',', ', ', ' ,']));
}

function stringFor(p: Property, ctx: Ctx): Json | undefined {
  const n = p.name.toLowerCase();
  const rng = ctx.rng;
  if (p.typeOptions?.editor === 'codeNodeEditor' || n === 'jscode' || n === 'functioncode') {
    if (ctx.node === 'functionItem') return rng.pick(FUNCTION_ITEM);
    if (ctx.node === 'function') return rng.pick(FUNCTION);
    if (n === 'pythoncode') return undefined;
    return rng.pick(ctx.root.mode === 'runOnceForEachItem' ? CODE_EACH : CODE_ALL);
  }
  if (n === 'code')
    return rng.pick([
      'return a.json.age - b.json.age;',
      'return String(a.json.name).localeCompare(String(b.json.name));',
      'return 0;',
    ]);
  if (/format/.test(n)) return rng.pick(FORMATS);
  if (/timezone/.test(n)) return rng.pick(ZONES);
  if (/selector/.test(n)) return rng.pick(SELECTORS);
  if (/regex|search/.test(n)) return rng.pick(REGEXES);
  if (/separat|delimiter/.test(n)) return rng.pick(SEPARATORS);
  if (n === 'attribute') return rng.pick(['href', 'class', 'id']);
  if (n === 'query') return undefined;
  // The property holding the document: mostly the field that has one.
  if (n === 'datapropertyname' && /html|xml/i.test(ctx.node) && rng.chance(0.75))
    return /xml/i.test(ctx.node) ? 'xml' : 'html';
  if (p.requiresDataPath || /field|key|property|^path$/.test(n)) {
    if (/name$/.test(n) && /output|destination|new|rename/.test(n))
      return rng.pick(['out', 'result', 'a.b', 'name', 'data']);
    return fieldList(ctx, p.requiresDataPath === 'multiple' || /fields/.test(n));
  }
  if (/date|magnitude|^value$/.test(n)) return rng.chance(0.6) ? expr(ctx, 'when') : rng.pick(DATES);
  if (/html|markdown|xml|text/.test(n))
    return rng.chance(0.6)
      ? expr(ctx, rng.pick(['html', 'name', 'city']))
      : rng.pick(['# T\n\n*x* [l](http://e.com)', '<p>a<br>b</p>', '<r><a>1</a></r>']);
  if (/message|description|secret|prefix|suffix|name|value/.test(n)) return rng.chance(0.5) ? expr(ctx) : literal(rng);
  return rng.chance(0.5) ? expr(ctx) : String(literal(rng));
}

const OPS: Record<string, string[]> = {
  string: [
    'exists',
    'notExists',
    'empty',
    'notEmpty',
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'startsWith',
    'notStartsWith',
    'endsWith',
    'notEndsWith',
    'regex',
    'notRegex',
  ],
  number: ['exists', 'notExists', 'empty', 'notEmpty', 'equals', 'notEquals', 'gt', 'lt', 'gte', 'lte'],
  dateTime: [
    'exists',
    'notExists',
    'empty',
    'notEmpty',
    'equals',
    'notEquals',
    'after',
    'before',
    'afterOrEquals',
    'beforeOrEquals',
  ],
  boolean: ['exists', 'notExists', 'empty', 'notEmpty', 'true', 'false', 'equals', 'notEquals'],
  array: [
    'exists',
    'notExists',
    'empty',
    'notEmpty',
    'contains',
    'notContains',
    'lengthEquals',
    'lengthNotEquals',
    'lengthGt',
    'lengthLt',
    'lengthGte',
    'lengthLte',
  ],
  object: ['exists', 'notExists', 'empty', 'notEmpty'],
};
const SINGLE = new Set(['exists', 'notExists', 'empty', 'notEmpty', 'true', 'false']);
const RIGHT: Record<string, Json[]> = {
  string: ['Paris', 'a', '', 'ann', 'TRUE', '1', 'Zoë'],
  number: [30, 0, '30', 7.5, '', 'x', 1],
  dateTime: ['2024-01-01T00:00:00Z', '2024-03-10', '', 'not a date', 1710073800000],
  boolean: [true, false, 'true', ''],
  array: ['a', 1, 2, '', 0],
  object: [''],
};

/** n8n's filter typeOptions as the editor evaluates them: `$nodeVersion >= X ? n : …` and `$nodeVersion < X ? options… : top`. */
function filterOptions(p: Property, ctx: Ctx, level: Params): Params {
  const t = p.typeOptions?.filter ?? {};
  let version = 1;
  for (const [, at, v] of String(t.version ?? '').matchAll(/\$nodeVersion\s*>=\s*([\d.]+)\s*\?\s*(\d)/g)) {
    if (ctx.version >= Number(at)) {
      version = Number(v);
      break;
    }
  }
  const below = /\$nodeVersion\s*<\s*([\d.]+)/.exec(String(t.typeValidation ?? ''));
  const opts = (level.options ?? ctx.root.options ?? {}) as Params;
  const loose =
    below && ctx.version < Number(below[1])
      ? opts.looseTypeValidation
      : (level.looseTypeValidation ?? ctx.root.looseTypeValidation);
  return { caseSensitive: !opts.ignoreCase, leftValue: '', typeValidation: loose ? 'loose' : 'strict', version };
}

function filterValue(ctx: Ctx): Params {
  const rng = ctx.rng;
  const conditions = Array.from({ length: rng.int(1, 3) }, (_, i) => {
    const type = rng.pick(Object.keys(OPS));
    const operation = rng.pick(OPS[type]);
    const c: Params = {
      id: `c${i}`,
      leftValue: rng.chance(0.9) ? expr(ctx) : literal(rng),
      rightValue: SINGLE.has(operation) ? '' : rng.chance(0.2) ? expr(ctx) : rng.pick(RIGHT[type]),
      operator: { type, operation },
    };
    if (SINGLE.has(operation)) c.operator.singleValue = true;
    return c;
  });
  // The options are filled in after the collection they read (`options`, `looseTypeValidation`), see finishFilters.
  return { options: {}, conditions, combinator: rng.pick(['and', 'or']) };
}

function assignments(ctx: Ctx): Params {
  const rng = ctx.rng;
  return {
    assignments: Array.from({ length: rng.int(1, 3) }, (_, i) => {
      const type = rng.pick(['string', 'number', 'boolean', 'array', 'object']);
      return {
        id: `a${i}`,
        name: rng.pick(['out', 'name', 'a.b', 'nested.y', 'n', '']),
        value: rng.chance(0.7) ? expr(ctx) : literal(rng),
        type,
      };
    }),
  };
}

function valueFor(p: Property, ctx: Ctx): unknown {
  const rng = ctx.rng;
  if (p.typeOptions?.loadOptionsMethod || p.typeOptions?.loadOptions) return undefined;
  switch (p.type) {
    case 'options': {
      if (FIXED[ctx.node]?.[p.name] !== undefined) return FIXED[ctx.node][p.name];
      const c = choices(p, ctx);
      if (c.length === 0) return undefined;
      // Selectors of behaviour are always set; a banned default is replaced.
      const banned = UNSTABLE[ctx.node]?.[p.name] ?? [];
      if (rng.chance(0.15) && !banned.includes(p.default)) return undefined;
      return rng.pick(c);
    }
    case 'multiOptions':
      return rng.subset(choices(p, ctx), 0.4, 1);
    case 'boolean':
      return rng.chance(0.5);
    case 'number': {
      if (FIXED[ctx.node]?.[p.name] !== undefined) return FIXED[ctx.node][p.name];
      const min = p.typeOptions?.minValue ?? 0;
      const max = p.typeOptions?.maxValue ?? 5;
      return rng.chance(0.85) ? rng.int(Math.max(min, -2), Math.min(max, 5)) : rng.pick([0, 1.5, 100]);
    }
    case 'string':
      return stringFor(p, ctx);
    case 'dateTime':
      return rng.pick(DATES);
    case 'json':
      return rng.pick([
        '{"a": 1}',
        '={{ JSON.stringify($json) }}',
        '[1, 2]',
        '{"who": "{{ $json.name }}"}',
        'not json',
        '={\n  "n": {{ $json.age }}\n}',
      ]);
    case 'collection':
      return fillLevel(p.options ?? [], ctx, {}, () => rng.chance(0.35));
    case 'fixedCollection': {
      const groups = (p.options ?? []).filter((g) => g.values);
      const out: Params = {};
      for (const g of rng.subset(groups, 0.6, 1)) {
        const one = () => fillLevel(g.values!, ctx, {}, () => rng.chance(0.85));
        out[g.name] = p.typeOptions?.multipleValues ? Array.from({ length: rng.int(1, 3) }, one) : one();
      }
      return out;
    }
    case 'filter':
      return filterValue(ctx);
    case 'assignmentCollection':
      return assignments(ctx);
    case 'resourceLocator':
    case 'credentialsSelect':
    case 'resourceMapper':
    case 'workflowSelector':
      return undefined;
    default:
      return undefined;
  }
}

/** Fills each filter's options once the parameters it reads (options.ignoreCase, looseTypeValidation) are chosen. */
function finishFilters(props: Property[], level: Params, ctx: Ctx): void {
  for (const p of props) {
    const v = level[p.name];
    if (v === undefined || v === null || typeof v !== 'object') continue;
    if (p.type === 'filter') v.options = filterOptions(p, ctx, level);
    else if (p.type === 'fixedCollection') {
      for (const g of p.options ?? []) {
        const entries = v[g.name] === undefined ? [] : Array.isArray(v[g.name]) ? v[g.name] : [v[g.name]];
        for (const e of entries) finishFilters(g.values ?? [], e, ctx);
      }
    }
  }
}

/** Random parameters for one node of this description at this version. */
export function randomParameters(desc: NodeDescription, version: number, rng: Rng): Params {
  const ctx: Ctx = { rng, node: desc.name, version, root: {} };
  topProps = desc.properties;
  fillLevel(
    desc.properties,
    ctx,
    ctx.root,
    (p) => p.type === 'options' || p.type === 'filter' || p.type === 'assignmentCollection' || rng.chance(0.75),
  );
  finishFilters(desc.properties, ctx.root, ctx);
  return ctx.root;
}
