// The template engine's values (@huggingface/jinja's runtime values) as this module uses them.
// The package exports its interpreter but not its value classes, so they are taken from values
// it makes (Environment.set converts a JS value) — stable for the pinned version, and checked by
// test/home/templates.test.ts. Values in templates are only ever these wrappers, never JS
// objects, which is what keeps user templates away from Node's globals (no `constructor` path).
import { Environment } from '@huggingface/jinja';

/** A runtime value of the engine (structural: the package does not export its classes' types). */
export interface RV {
  type: string;
  value: any;
  builtins: Map<string, RV>;
  __bool__(): { value: boolean };
  toString(): string;
}
type RVClass = new (value?: any) => RV;

const classOf = (v: unknown) => new Environment().set('probe', v).constructor as RVClass;

const StringValue = classOf('');
const IntegerValue = classOf(1);
const FloatValue = classOf(1.5);
const BooleanValue = classOf(true);
const NullValue = classOf(null);
const UndefinedValue = classOf(undefined);
export const ObjectValue = classOf({});
const ArrayValue = classOf([]);
export const FunctionValue = classOf(() => null);

export type Kwargs = Map<string, RV>;

export const str = (s: string): RV => new StringValue(s);
export const num = (n: number, float = !Number.isInteger(n)): RV => (float ? new FloatValue(n) : new IntegerValue(n));
export const bool = (b: boolean): RV => new BooleanValue(b);
export const NONE: RV = new NullValue(null);
export const undef = (): RV => new UndefinedValue();
export const list = (items: RV[]): RV => new ArrayValue(items);

export const isStr = (v: RV) => v.type === 'StringValue';
export const isNum = (v: RV) => v.type === 'IntegerValue' || v.type === 'FloatValue';
export const isBool = (v: RV) => v.type === 'BooleanValue';
export const isNone = (v: RV) => v.type === 'NullValue';
export const isUndef = (v: RV) => v.type === 'UndefinedValue';
export const isList = (v: RV) => v.type === 'ArrayValue' || v.type === 'TupleValue';
/** Objects with attributes (dicts, namespaces, states, datetimes). */
export const isMapping = (v: RV): boolean => v.type === 'NamespaceValue' || v instanceof ObjectValue;

/** A value with its own meaning of iteration (states, a domain of states): its items. */
export interface Iterable {
  items(): RV[];
}
const hasItems = (v: RV): v is RV & Iterable =>
  typeof (v as unknown as Partial<Iterable>).items === 'function' &&
  (v as { iterableItems?: boolean }).iterableItems === true;

/** The items of a sequence as Jinja iterates it: a list's items, a dict's keys, a string's characters. */
export function iterate(v: RV): RV[] {
  if (isList(v)) return v.value as RV[];
  if (hasItems(v)) return v.items();
  if (isMapping(v)) return [...(v.value as Map<string, RV>).keys()].map(str);
  if (isStr(v)) return Array.from(v.value as string).map(str);
  if (isUndef(v) || isNone(v)) return [];
  throw new TemplateTypeError(`'${typeName(v)}' object is not iterable`);
}

export class TemplateTypeError extends Error {
  override name = 'TypeError';
}

/** A template went past one of its bounds (steps, time, size). */
export class TemplateLimitError extends Error {
  override name = 'TemplateLimitError';
}

/**
 * Bounds for turning a value into text or JSON: lists may share items, so a value of bounded
 * lists can still stand for an unbounded text (a list of 10,000 references to one list of
 * 10,000 items). Writing stops once past the bound.
 */
export const MAX_TEXT = 256 * 1024;
const MAX_NODES = 1_000_000;
const tooLarge = () =>
  new TemplateLimitError(
    `template stopped: a value too large to write out (over ${MAX_TEXT} characters or ${MAX_NODES} items)`,
  );

/** Python's name of a value's type, for error messages. */
export function typeName(v: RV): string {
  switch (v.type) {
    case 'StringValue':
      return 'str';
    case 'IntegerValue':
      return 'int';
    case 'FloatValue':
      return 'float';
    case 'BooleanValue':
      return 'bool';
    case 'NullValue':
      return 'NoneType';
    case 'ArrayValue':
      return 'list';
    case 'TupleValue':
      return 'tuple';
    case 'FunctionValue':
      return 'function';
    case 'UndefinedValue':
      return 'Undefined';
    default:
      return (v as { pyType?: string }).pyType ?? 'dict';
  }
}

/** A JS value (JSON-like: what states, attributes and variables hold) as a runtime value. */
export function toRuntime(v: unknown): RV {
  switch (typeof v) {
    case 'string':
      return str(v);
    case 'number':
      return num(v);
    case 'boolean':
      return bool(v);
    case 'undefined':
      return undef();
    case 'object': {
      if (v === null) return NONE;
      if (Array.isArray(v)) return list(v.map(toRuntime));
      const m = new Map<string, RV>();
      for (const [k, x] of Object.entries(v)) m.set(k, toRuntime(x));
      return new ObjectValue(m);
    }
    default:
      // Functions and other host values never enter a template.
      return NONE;
  }
}

/** A runtime value back as JSON-like JS (service data, MQTT payloads, WS results). */
export function toJs(v: RV, budget = { left: MAX_NODES }): unknown {
  if (--budget.left < 0) throw tooLarge();
  const custom = (v as { toJs?: () => unknown }).toJs;
  if (custom) return custom.call(v);
  switch (v.type) {
    case 'StringValue':
    case 'IntegerValue':
    case 'FloatValue':
    case 'BooleanValue':
      return v.value;
    case 'NullValue':
    case 'UndefinedValue':
    case 'FunctionValue':
      return null;
    case 'ArrayValue':
    case 'TupleValue':
      return (v.value as RV[]).map((x) => toJs(x, budget));
    default:
      if (isMapping(v))
        return Object.fromEntries([...(v.value as Map<string, RV>)].map(([k, x]) => [k, toJs(x, budget)]));
      return null;
  }
}

const pyFloat = (n: number) =>
  Number.isInteger(n) && Math.abs(n) < 1e16
    ? n.toFixed(1)
    : Number.isNaN(n)
      ? 'nan'
      : !Number.isFinite(n)
        ? n > 0
          ? 'inf'
          : '-inf'
        : String(n);

export type TextBudget = { left: number };
const spend = (budget: TextBudget, text: string) => {
  budget.left -= text.length;
  if (budget.left < 0) throw tooLarge();
  return text;
};

/** Python's repr(): how a value shows inside a list or dict. */
function pyRepr(v: RV, budget: TextBudget): string {
  if (!isStr(v)) return pyStr(v, budget);
  const s = v.value as string;
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  const escaped = s
    .replace(/\\/g, '\\\\')
    .replace(new RegExp(q, 'g'), `\\${q}`)
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t');
  return spend(budget, q + escaped + q);
}

/** Python's str(): how a value renders in a template's output (at most MAX_TEXT characters). */
export function pyStr(v: RV, budget: TextBudget = { left: MAX_TEXT }): string {
  const custom = (v as { pyStr?: () => string }).pyStr;
  if (custom) return spend(budget, custom.call(v));
  switch (v.type) {
    case 'StringValue':
      return spend(budget, v.value as string);
    case 'IntegerValue':
      return spend(budget, String(v.value));
    case 'FloatValue':
      return spend(budget, pyFloat(v.value as number));
    case 'BooleanValue':
      return spend(budget, v.value ? 'True' : 'False');
    case 'NullValue':
      return spend(budget, 'None');
    case 'UndefinedValue':
      return '';
    case 'ArrayValue':
      return `[${(v.value as RV[]).map((x) => pyRepr(x, budget)).join(', ')}]`;
    case 'TupleValue': {
      const items = (v.value as RV[]).map((x) => pyRepr(x, budget));
      return `(${items.join(', ')}${items.length === 1 ? ',' : ''})`;
    }
    case 'FunctionValue':
      return '<function>';
    default:
      if (isMapping(v))
        return `{${[...(v.value as Map<string, RV>)].map(([k, x]) => `${pyRepr(str(k), budget)}: ${pyRepr(x, budget)}`).join(', ')}}`;
      return spend(budget, String(v.value));
  }
}

/** A number from a runtime value as Python's float() reads it; undefined when it is not one. */
export function toNumber(v: RV): number | undefined {
  if (isNum(v)) return v.value as number;
  if (isBool(v)) return v.value ? 1 : 0;
  if (isStr(v)) {
    const t = (v.value as string).trim();
    if (!/^[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf(inity)?|nan)$/i.test(t)) return undefined;
    const lower = t.toLowerCase().replace(/^\+/, '');
    if (lower.endsWith('inf') || lower.endsWith('infinity')) return lower.startsWith('-') ? -Infinity : Infinity;
    if (lower.endsWith('nan')) return NaN;
    return Number(t);
  }
  return undefined;
}
