// Home Assistant's template functions, filters and tests (homeassistant/helpers/template),
// written against the engine's runtime values. Most of HA's are both a function and a filter
// (`float(x, 0)` and `x | float(0)`); a few are tests too (`x is is_state('on')`). Each entry
// says which it is. What a render looks at is recorded in the scope's RenderInfo.
import { slugify } from '../core/state.js';
import {
  DateTimeValue,
  fieldsOf,
  relativeTime,
  strftime,
  TemplateValueError,
  TimeDeltaValue,
  timedelta,
  toDateTime,
} from './datetime.js';
import { compileRegex, regexSubject, translateReplacement } from './regex.js';
import {
  bool,
  isBool,
  isList,
  isMapping,
  isNone,
  isNum,
  isStr,
  isUndef,
  iterate,
  type Kwargs,
  list,
  NONE,
  num,
  ObjectValue,
  pyStr,
  type RV,
  str,
  MAX_TEXT,
  TemplateLimitError,
  TemplateTypeError,
  toJs,
  toNumber,
  toRuntime,
  typeName,
  undef,
} from './runtime.js';
import { StateValue, stateValue, type RenderInfo, type StatesNamespace } from './states.js';
import type { TemplateWorld } from './world.js';

export interface RenderScope {
  world: TemplateWorld;
  info: RenderInfo;
  states: StatesNamespace;
  /** The template's text, for HA's "got invalid input … when rendering template …" messages. */
  source: string;
  /** The longest list range() and similar may build. */
  maxItems: number;
  /** Applies a filter or test by name (for select/map/selectattr). */
  applyTest(name: string, value: RV, args: RV[]): boolean;
  applyFilter(name: string, value: RV, args: RV[], kwargs: Kwargs): RV;
}

type Impl = (args: RV[], kw: Kwargs, scope: RenderScope) => RV;
interface Entry {
  impl: Impl;
  global?: boolean;
  filter?: boolean;
  test?: boolean;
}

/** Argument i, or keyword `name`, or undefined. */
const arg = (args: RV[], kw: Kwargs, i: number, name: string): RV | undefined => args[i] ?? kw.get(name);
const text = (v: RV | undefined) =>
  v === undefined || isUndef(v) || isNone(v) ? '' : isStr(v) ? (v.value as string) : pyStr(v);
const truthy = (v: RV | undefined) => !!v && v.__bool__().value;

function noDefault(name: string, value: RV, scope: RenderScope): never {
  throw new TemplateValueError(
    `Template error: ${name} got invalid input '${pyStr(value)}' when rendering template '${scope.source}' but no default was specified`,
  );
}

/** Entity ids named by a value: a string, a state object, or a list of them. */
function entityIdOf(v: RV): string | undefined {
  if (v instanceof StateValue) return v.state.entity_id;
  if (isStr(v)) return (v.value as string).toLowerCase();
  return undefined;
}

function stateOf(scope: RenderScope, v: RV | undefined) {
  const id = v && entityIdOf(v);
  if (!id) return undefined;
  scope.info.entities.add(id);
  return scope.world.states.get(id);
}

function isState(args: RV[], _kw: Kwargs, scope: RenderScope): RV {
  const s = stateOf(scope, args[0]);
  const wanted = args[1];
  if (!s || !wanted) return bool(false);
  return bool(isList(wanted) ? iterate(wanted).some((w) => w.value === s.state) : s.state === wanted.value);
}

function stateAttr(args: RV[], _kw: Kwargs, scope: RenderScope): RV {
  const s = stateOf(scope, args[0]);
  const name = args[1];
  if (!s || !name || !isStr(name)) return NONE;
  const v = s.attributes[name.value as string];
  return v === undefined ? NONE : toRuntime(v);
}

function isStateAttr(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const a = stateAttr(args, kw, scope);
  const wanted = args[2];
  if (!wanted) return bool(false);
  return bool(JSON.stringify(toJs(a)) === JSON.stringify(toJs(wanted)));
}

function hasValue(args: RV[], _kw: Kwargs, scope: RenderScope): RV {
  const s = stateOf(scope, args[0]);
  return bool(!!s && s.state !== 'unknown' && s.state !== 'unavailable');
}

/** expand(*entities): states of the entities (and of groups' members), sorted, without duplicates. */
function expand(args: RV[], _kw: Kwargs, scope: RenderScope): RV {
  const found = new Map<string, StateValue>();
  const pending = args.flatMap((a) =>
    isList(a) || a.type === 'AllStates' || (a as { iterableItems?: boolean }).iterableItems ? iterate(a) : [a],
  );
  let guard = 0;
  while (pending.length && guard++ < scope.maxItems) {
    const v = pending.shift()!;
    const s = v instanceof StateValue ? v.state : stateOf(scope, v);
    if (!s || found.has(s.entity_id)) continue;
    scope.info.entities.add(s.entity_id);
    const members = s.attributes.entity_id;
    if (Array.isArray(members) && (s.domain === 'group' || s.domain === 'light' || s.domain === 'switch')) {
      if (s.domain === 'group' || members.length) {
        for (const m of members) if (typeof m === 'string') pending.push(str(m));
        if (s.domain === 'group') continue;
      }
    }
    found.set(s.entity_id, stateValue(s));
  }
  return list([...found.values()].sort((a, b) => (a.state.entity_id < b.state.entity_id ? -1 : 1)));
}

function toFloat(name: string): Impl {
  return (args, kw, scope) => {
    const v = args[0] ?? undef();
    const n = toNumber(v);
    if (n !== undefined) return num(n, true);
    const d = arg(args, kw, 1, 'default');
    return d ?? noDefault(name, v, scope);
  };
}

function toInt(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  const base = Number(arg(args, kw, 2, 'base')?.value ?? 10);
  if (isStr(v) && base !== 10) {
    const n = parseInt((v.value as string).trim().replace(/^0[xob]/i, ''), base);
    if (!Number.isNaN(n)) return num(n);
  } else {
    const n = toNumber(v);
    if (n !== undefined && Number.isFinite(n)) return num(Math.trunc(n));
  }
  return arg(args, kw, 1, 'default') ?? noDefault('int', v, scope);
}

/** Python's round(): half to even. */
function roundHalfEven(x: number, digits: number): number {
  const m = 10 ** digits;
  const y = x * m;
  const r = Math.round(y);
  const isHalf = Math.abs(y % 1) === 0.5;
  return (isHalf ? (r % 2 === 0 ? r : r - 1) : r) / m;
}

function round(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  const precision = Number(arg(args, kw, 1, 'precision')?.value ?? 0);
  const method = text(arg(args, kw, 2, 'method')) || 'common';
  const n = toNumber(v);
  if (n === undefined) return arg(args, kw, 3, 'default') ?? noDefault('round', v, scope);
  const m = 10 ** precision;
  const r =
    method === 'ceil'
      ? Math.ceil(n * m) / m
      : method === 'floor'
        ? Math.floor(n * m) / m
        : method === 'half'
          ? Math.round(n * 2) / 2
          : roundHalfEven(n, precision);
  return precision === 0 && method !== 'half' ? num(r) : num(r, true);
}

function toBool(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  if (isBool(v)) return v;
  if (isNum(v)) return bool(v.value !== 0);
  const t = text(v).trim().toLowerCase();
  if (['true', 'yes', 'on', 'enable', '1'].includes(t)) return bool(true);
  if (['false', 'no', 'off', 'disable', '0', 'none'].includes(t)) return bool(false);
  return arg(args, kw, 1, 'default') ?? noDefault('bool', v, scope);
}

function asTimestamp(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  const dt = toDateTime(v, scope.world.timeZone);
  if (dt) return num(dt.us / 1e6, true);
  return arg(args, kw, 1, 'default') ?? noDefault('as_timestamp', v, scope);
}

function asDatetime(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  const dt = toDateTime(v, 'UTC');
  if (dt) return dt;
  return arg(args, kw, 1, 'default') ?? noDefault('as_datetime', v, scope);
}

const nowIn = (scope: RenderScope, tz: string) => {
  scope.info.time = true;
  return new DateTimeValue(scope.world.nowUs(), tz);
};

function iif(args: RV[], kw: Kwargs): RV {
  const v = args[0] ?? undef();
  const ifNone = arg(args, kw, 3, 'if_none');
  if (isNone(v) && ifNone) return ifNone;
  return truthy(v) ? (arg(args, kw, 1, 'if_true') ?? bool(true)) : (arg(args, kw, 2, 'if_false') ?? bool(false));
}

function compareValues(a: RV, b: RV): number {
  const x = (a as { us?: number }).us ?? a.value;
  const y = (b as { us?: number }).us ?? b.value;
  if (typeof x !== typeof y && !(isNum(a) && isNum(b)))
    throw new TemplateTypeError(`'<' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  return x < y ? -1 : x > y ? 1 : 0;
}

function extreme(sign: 1 | -1): Impl {
  return (args, kw, scope) => {
    const items = args.length === 1 ? iterate(args[0]) : args;
    const attribute = kw.get('attribute');
    const key = (v: RV) => (attribute ? attributeOf(v, text(attribute), scope) : v);
    if (!items.length) return undef();
    return items.reduce((best, v) => (compareValues(key(v), key(best)) * sign > 0 ? v : best));
  };
}

/** item.attribute, with dotted paths and list indexes, as Jinja's attribute filters read it. */
function attributeOf(item: RV, path: string, _scope?: RenderScope): RV {
  let v: RV = item;
  for (const part of path.split('.')) {
    if (isMapping(v)) v = (v.value as Map<string, RV>).get(part) ?? undef();
    else if (isList(v) && /^-?\d+$/.test(part)) v = (v.value as RV[]).at(Number(part)) ?? undef();
    else return undef();
  }
  return v;
}

function selectAttr(keep: boolean): Impl {
  return (args, _kw, scope) => {
    const [seq, attr, test, ...rest] = args;
    if (!seq || !attr) throw new TemplateTypeError('selectattr needs an attribute name');
    return list(
      iterate(seq).filter((item) => {
        const a = attributeOf(item, text(attr), scope);
        const r = test ? scope.applyTest(text(test), a, rest) : truthy(a);
        return r === keep;
      }),
    );
  };
}

function select(keep: boolean): Impl {
  return (args, _kw, scope) => {
    const [seq, test, ...rest] = args;
    return list(
      iterate(seq ?? undef()).filter(
        (item) => (test ? scope.applyTest(text(test), item, rest) : truthy(item)) === keep,
      ),
    );
  };
}

function mapFilter(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const [seq, name, ...rest] = args;
  const items = iterate(seq ?? undef());
  const attribute = kw.get('attribute');
  if (attribute) {
    const d = kw.get('default');
    return list(
      items.map((i) => {
        const v = attributeOf(i, text(attribute), scope);
        return isUndef(v) && d ? d : v;
      }),
    );
  }
  if (!name) throw new TemplateTypeError('map needs a filter name or attribute=');
  const filterKw = new Map(kw);
  return list(items.map((i) => scope.applyFilter(text(name), i, rest, filterKw)));
}

/** HA's to_json: compact JSON (orjson), optionally sorted and pretty. */
function toJson(args: RV[], kw: Kwargs): RV {
  const v = toJs(args[0] ?? NONE);
  const sortKeys = truthy(kw.get('sort_keys'));
  const pretty = truthy(kw.get('pretty_print'));
  const sorted = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sorted)
      : x && typeof x === 'object'
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sorted((x as Record<string, unknown>)[k])]),
          )
        : x;
  let out = JSON.stringify(sortKeys ? sorted(v) : v, null, pretty ? 2 : undefined) ?? 'null';
  if (truthy(kw.get('ensure_ascii')))
    out = out.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return str(out);
}

function fromJson(args: RV[], kw: Kwargs, scope: RenderScope): RV {
  const v = args[0] ?? undef();
  try {
    return toRuntime(JSON.parse(text(v)));
  } catch {
    return arg(args, kw, 1, 'default') ?? noDefault('from_json', v, scope);
  }
}

function regexMatch(anchored: boolean): Impl {
  return (args, kw) => {
    const subject = regexSubject(text(args[0]));
    const re = compileRegex(
      text(arg(args, kw, 1, 'find')),
      truthy(arg(args, kw, 2, 'ignorecase')),
      anchored ? 'y' : '',
    );
    return bool(re.test(subject));
  };
}

function regexReplace(args: RV[], kw: Kwargs): RV {
  const subject = regexSubject(text(args[0]));
  const re = compileRegex(text(arg(args, kw, 1, 'find')), truthy(arg(args, kw, 3, 'ignorecase')), 'g');
  const replacement = translateReplacement(text(arg(args, kw, 2, 'replace')));
  const matches = subject.match(re)?.length ?? 0;
  if (subject.length + matches * replacement.length > MAX_TEXT)
    throw new TemplateLimitError(
      `template stopped: regex_replace would make a text longer than ${MAX_TEXT} characters`,
    );
  return str(subject.replace(re, replacement));
}

function findAll(args: RV[], kw: Kwargs, ignoreCaseAt: number): RV[] {
  const subject = regexSubject(text(args[0]));
  const re = compileRegex(text(arg(args, kw, 1, 'find')), truthy(arg(args, kw, ignoreCaseAt, 'ignorecase')), 'g');
  const out: RV[] = [];
  for (const m of subject.matchAll(re)) {
    if (m.length === 1) out.push(str(m[0]));
    else if (m.length === 2) out.push(str(m[1] ?? ''));
    else out.push(list(m.slice(1).map((g) => str(g ?? ''))));
  }
  return out;
}

function timestampFormat(format: (dt: DateTimeValue) => string): Impl {
  return (args, kw, scope) => {
    const v = args[0] ?? undef();
    const n = toNumber(v);
    if (n === undefined) return arg(args, kw, 99, 'default') ?? noDefault('timestamp', v, scope);
    return str(format(new DateTimeValue(Math.round(n * 1e6), scope.world.timeZone)));
  };
}

function rangeFn(args: RV[], _kw: Kwargs, scope: RenderScope): RV {
  const n = args.map((a) => Number(a.value));
  const [start, stop, step] = n.length === 1 ? [0, n[0], 1] : [n[0], n[1], n[2] ?? 1];
  if (!step) throw new TemplateValueError('range() arg 3 must not be zero');
  const count = Math.max(0, Math.ceil((stop - start) / step));
  if (count > scope.maxItems)
    throw new TemplateLimitError(
      `range() of ${count} items is more than this server allows in a template (${scope.maxItems})`,
    );
  return list(Array.from({ length: count }, (_x, i) => num(start + i * step)));
}

const registry = (scope: RenderScope) => scope.world.registry;

/** str.replace(old, new[, count]) without building a text past MAX_TEXT (a replacement can multiply a text). */
export function boundedReplace(subject: string, find: string, replacement: string, count?: RV): string {
  const max = count && isNum(count) && (count.value as number) >= 0 ? (count.value as number) : Infinity;
  const occurrences = find === '' ? subject.length + 1 : subject.split(find).length - 1;
  const n = Math.min(max, occurrences);
  if (subject.length + n * (replacement.length - find.length) > MAX_TEXT)
    throw new TemplateLimitError(`template stopped: replace would make a text longer than ${MAX_TEXT} characters`);
  if (n === occurrences)
    return find === ''
      ? replacement + Array.from(subject).join(replacement) + (subject ? replacement : '')
      : subject.split(find).join(replacement);
  let out = subject;
  let from = 0;
  for (let i = 0; i < n; i++) {
    const at = out.indexOf(find, from);
    if (at < 0) break;
    out = out.slice(0, at) + replacement + out.slice(at + find.length);
    from = at + replacement.length;
  }
  return out;
}

export const FUNCTIONS: Record<string, Entry> = {
  states: { filter: true, impl: (args, _kw, scope) => scope.states.call(args) },
  is_state: { global: true, filter: true, test: true, impl: isState },
  state_attr: { global: true, filter: true, impl: stateAttr },
  is_state_attr: { global: true, filter: true, test: true, impl: isStateAttr },
  has_value: { global: true, filter: true, test: true, impl: hasValue },
  expand: { global: true, filter: true, impl: expand },
  area_entities: {
    global: true,
    filter: true,
    impl: (args, _kw, scope) => list(registry(scope).areaEntities(text(args[0])).map(str)),
  },
  area_name: {
    global: true,
    filter: true,
    impl: (args, _kw, scope) => {
      const n = registry(scope).areaName(text(args[0]));
      return n === null ? NONE : str(n);
    },
  },
  device_attr: {
    global: true,
    filter: true,
    impl: (args, _kw, scope) => toRuntime(registry(scope).deviceAttr(text(args[0]), text(args[1])) ?? null),
  },
  now: { global: true, impl: (_a, _kw, scope) => nowIn(scope, scope.world.timeZone) },
  utcnow: { global: true, impl: (_a, _kw, scope) => nowIn(scope, 'UTC') },
  as_timestamp: { global: true, filter: true, impl: asTimestamp },
  as_datetime: { global: true, filter: true, impl: asDatetime },
  as_local: {
    global: true,
    filter: true,
    impl: (args, _kw, scope) => {
      const dt = toDateTime(args[0] ?? undef(), 'UTC');
      return dt ? new DateTimeValue(dt.us, scope.world.timeZone) : noDefault('as_local', args[0] ?? undef(), scope);
    },
  },
  relative_time: {
    global: true,
    filter: true,
    impl: (args, _kw, scope) => {
      const dt = args[0] instanceof DateTimeValue ? args[0] : undefined;
      return dt ? relativeTime(scope.world.nowUs(), dt) : (args[0] ?? undef());
    },
  },
  timedelta: { global: true, impl: (args, kw) => timedelta(args, kw) },
  timestamp_local: { filter: true, global: true, impl: timestampFormat((dt) => dt.iso('T')) },
  timestamp_utc: {
    filter: true,
    global: true,
    impl: timestampFormat((dt) => new DateTimeValue(dt.us, 'UTC').iso('T')),
  },
  timestamp_custom: {
    filter: true,
    global: true,
    impl: (args, kw, scope) => {
      const v = args[0] ?? undef();
      const n = toNumber(v);
      if (n === undefined) return arg(args, kw, 3, 'default') ?? noDefault('timestamp_custom', v, scope);
      const local = arg(args, kw, 2, 'local');
      const tz = local && !truthy(local) ? 'UTC' : scope.world.timeZone;
      return str(
        strftime(fieldsOf(Math.round(n * 1e6), tz), text(arg(args, kw, 1, 'format_string')) || '%Y-%m-%d %H:%M:%S', tz),
      );
    },
  },
  float: { global: true, filter: true, impl: toFloat('float') },
  int: { global: true, filter: true, impl: toInt },
  bool: { global: true, filter: true, impl: toBool },
  round: { filter: true, impl: round },
  iif: { global: true, filter: true, impl: iif },
  min: { global: true, filter: true, impl: extreme(-1) },
  max: { global: true, filter: true, impl: extreme(1) },
  average: {
    global: true,
    filter: true,
    impl: (args, kw, scope) => {
      const items = args.length === 1 && isList(args[0]) ? iterate(args[0]) : args;
      const ns = items.map(toNumber);
      if (!ns.length || ns.some((n) => n === undefined))
        return kw.get('default') ?? noDefault('average', list(items), scope);
      return num((ns as number[]).reduce((a, b) => a + b, 0) / ns.length, true);
    },
  },
  sum: {
    filter: true,
    impl: (args) =>
      iterate(args[0] ?? undef()).reduce(
        (acc, v) =>
          num((acc.value as number) + (toNumber(v) ?? 0), acc.type === 'FloatValue' || v.type === 'FloatValue'),
        num(0),
      ),
  },
  selectattr: { filter: true, impl: selectAttr(true) },
  rejectattr: { filter: true, impl: selectAttr(false) },
  select: { filter: true, impl: select(true) },
  reject: { filter: true, impl: select(false) },
  map: { filter: true, impl: mapFilter },
  list: { filter: true, impl: (args) => list(iterate(args[0] ?? undef())) },
  first: { filter: true, impl: (args) => iterate(args[0] ?? undef())[0] ?? undef() },
  last: { filter: true, impl: (args) => iterate(args[0] ?? undef()).at(-1) ?? undef() },
  count: { filter: true, impl: (args) => num(iterate(args[0] ?? undef()).length) },
  length: {
    filter: true,
    impl: (args) =>
      num(isStr(args[0]) ? Array.from(args[0].value as string).length : iterate(args[0] ?? undef()).length),
  },
  join: {
    filter: true,
    impl: (args, kw, scope) => {
      const attribute = kw.get('attribute');
      const budget = { left: MAX_TEXT };
      const sep = text(arg(args, kw, 1, 'd'));
      return str(
        iterate(args[0] ?? undef())
          .map(
            (v) => ((budget.left -= sep.length), pyStr(attribute ? attributeOf(v, text(attribute), scope) : v, budget)),
          )
          .join(sep),
      );
    },
  },
  unique: {
    filter: true,
    impl: (args) => {
      const seen = new Set<unknown>();
      return list(iterate(args[0] ?? undef()).filter((v) => (seen.has(v.value) ? false : (seen.add(v.value), true))));
    },
  },
  string: { filter: true, impl: (args) => str(text(args[0])) },
  d: {
    filter: true,
    impl: (args, kw) =>
      isUndef(args[0] ?? undef()) || (truthy(arg(args, kw, 2, 'boolean')) && !truthy(args[0]))
        ? (args[1] ?? str(''))
        : args[0],
  },
  default: {
    filter: true,
    impl: (args, kw) =>
      isUndef(args[0] ?? undef()) || (truthy(arg(args, kw, 2, 'boolean')) && !truthy(args[0]))
        ? (args[1] ?? str(''))
        : args[0],
  },
  contains: {
    filter: true,
    test: true,
    impl: (args) =>
      bool(
        iterate(args[0] ?? undef()).some((v) => v.value === args[1]?.value) ||
          (isStr(args[0]) && text(args[0]).includes(text(args[1]))),
      ),
  },
  regex_match: { filter: true, impl: regexMatch(true) },
  regex_search: { filter: true, impl: regexMatch(false) },
  match: { test: true, impl: regexMatch(true) },
  search: { test: true, impl: regexMatch(false) },
  regex_replace: { filter: true, impl: regexReplace },
  regex_findall: { filter: true, impl: (args, kw) => list(findAll(args, kw, 2)) },
  regex_findall_index: {
    filter: true,
    impl: (args, kw) => {
      const all = findAll([args[0], args[1], ...(args[3] ? [args[3]] : [])], kw, 2);
      const i = Number(arg(args, kw, 2, 'index')?.value ?? 0);
      const v = all.at(i);
      if (!v) throw new TemplateValueError('list index out of range');
      return v;
    },
  },
  replace: {
    filter: true,
    impl: (args, kw) => str(boundedReplace(text(args[0]), text(args[1]), text(args[2]), arg(args, kw, 3, 'count'))),
  },
  to_json: { filter: true, impl: toJson },
  from_json: { filter: true, impl: fromJson },
  slugify: { filter: true, global: true, impl: (args) => str(slugify(text(args[0]))) },
  range: { global: true, impl: rangeFn },
  dict: {
    global: true,
    impl: (args, kw) => {
      const m = new Map<string, RV>();
      if (args[0] && isMapping(args[0])) for (const [k, v] of args[0].value as Map<string, RV>) m.set(k, v);
      for (const [k, v] of kw) m.set(k, v);
      return new ObjectValue(m);
    },
  },
  is_number: {
    filter: true,
    global: true,
    impl: (args) =>
      bool(isNum(args[0]) || (isStr(args[0]) && toNumber(args[0]) !== undefined && Number.isFinite(toNumber(args[0])))),
  },
  // Tests Jinja and HA add that the engine does not have.
  number: { test: true, impl: (args) => bool(isNum(args[0])) },
  boolean: { test: true, impl: (args) => bool(isBool(args[0])) },
  mapping: {
    test: true,
    impl: (args) =>
      bool(isMapping(args[0]) && !(args[0] instanceof DateTimeValue) && !(args[0] instanceof TimeDeltaValue)),
  },
  iterable: { test: true, impl: (args) => bool(isList(args[0]) || isStr(args[0]) || isMapping(args[0])) },
  sequence: { test: true, impl: (args) => bool(isList(args[0]) || isStr(args[0]) || isMapping(args[0])) },
  datetime: { test: true, impl: (args) => bool(args[0] instanceof DateTimeValue) },
  divisibleby: {
    test: true,
    impl: (args) => bool((toNumber(args[0]) ?? NaN) % (toNumber(args[1] ?? undef()) ?? NaN) === 0),
  },
  ne: { test: true, impl: (args) => bool(args[0]?.value !== args[1]?.value) },
  lt: { test: true, impl: (args) => bool(compareValues(args[0], args[1]) < 0) },
  gt: { test: true, impl: (args) => bool(compareValues(args[0], args[1]) > 0) },
  le: { test: true, impl: (args) => bool(compareValues(args[0], args[1]) <= 0) },
  ge: { test: true, impl: (args) => bool(compareValues(args[0], args[1]) >= 0) },
  in: { test: true, impl: (args) => bool(iterate(args[1] ?? undef()).some((v) => v.value === args[0]?.value)) },
};
