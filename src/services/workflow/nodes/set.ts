// Set / Edit Fields. v1–v2: typed value lists and keepOnlySet. v3.x: typed assignments or
// raw JSON, with other fields kept per `include` (3.0–3.2 keep all by default, 3.3+ none).
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, fieldList, isPlainObject, lodashGet, lodashSet, lodashUnset } from './util.js';
import { parseLenientJson } from './lenient-json.js';
import { splitTemplate } from '../expressions/template.js';

interface Assignment {
  name?: string;
  type?: string;
  value?: unknown;
}

/** How n8n names a value in a conversion error: text in quotes, arrays and objects by kind. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value !== null && typeof value === 'object') return 'object';
  return `'${String(value)}'`;
}

/**
 * A field's value as its type, by n8n 3.x's rules (observed): booleans from true/false in any
 * case or anything whose Number() is 0 or 1 (not blank text); numbers by Number() (blank text
 * is 0, objects fail); arrays and objects from JSON text, arrays also with single quotes,
 * objects also as a JavaScript literal. A value that does not convert fails the item, or stays
 * as it is with `ignoreErrors`; 3.0–3.2 refuse any text that is no object, whatever the option.
 */
function convert(
  name: string,
  type: string,
  value: unknown,
  itemIndex: number,
  ignoreErrors: boolean,
  typeVersion: number,
): unknown {
  const fail = (): never => {
    throw new NodeOperationError(`'${name}' expects a ${type} but we got ${describe(value)} [item ${itemIndex}]`);
  };
  if (value === null || value === undefined) {
    // From 3.2 nothing sets the field to null, whatever its type. Before, a text field takes it
    // as text in 3.0 ("undefined", "null") and refuses it in 3.1 (null with ignoreErrors);
    // other types take null.
    if (typeVersion < 3.2 && type === 'string') {
      if (typeVersion === 3) return String(value);
      if (!ignoreErrors) fail();
    }
    return null;
  }
  try {
    switch (type) {
      case 'string':
        return typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
      case 'number': {
        const n = typeof value === 'number' ? value : isPlainObject(value) ? NaN : Number(value);
        if (Number.isNaN(n)) fail();
        return n;
      }
      case 'boolean': {
        if (typeof value === 'boolean') return value;
        if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase()))
          return value.toLowerCase() === 'true';
        if (!(typeof value === 'string' && value.trim() === '')) {
          const n = Number(value);
          if (n === 0) return false;
          if (n === 1) return true;
        }
        return fail();
      }
      case 'array': {
        if (Array.isArray(value)) return value;
        let parsed: unknown;
        try {
          parsed = JSON.parse(String(value));
        } catch {
          try {
            parsed = JSON.parse(String(value).replace(/'/g, '"'));
          } catch {
            return fail();
          }
        }
        return Array.isArray(parsed) ? parsed : fail();
      }
      case 'object': {
        if (isPlainObject(value)) return value;
        let parsed: unknown;
        try {
          // Blank text is no object (3.3+ read it as JSON, then as a JavaScript object literal).
          if (typeVersion >= 3.3 && typeof value === 'string' && !value.trim()) throw new SyntaxError('blank');
          parsed = typeof value === 'string' ? parseLenientJson(value) : value;
        } catch {
          parsed = undefined;
        }
        if (parsed !== null && (typeof parsed !== 'object' || Array.isArray(parsed))) {
          if (typeVersion < 3.3)
            throw new NodeOperationError(
              `The entry "${name}" inside 'Fields to Set' in item ${itemIndex} does not contain a valid JSON object`,
            );
          return fail();
        }
        return parsed;
      }
      default:
        return value;
    }
  } catch (err) {
    if (ignoreErrors && !(err instanceof NodeOperationError && err.message.startsWith('The entry '))) return value;
    throw err;
  }
}

/**
 * A key as v3 reads it without dot notation: as written, or without `["…"]` / `['…']` around
 * it when only the inner name is there.
 */
function plainKey(obj: Record<string, unknown>, key: string): string {
  if (obj[key] !== undefined) return key;
  const quoted = (key.startsWith('["') && key.endsWith('"]')) || (key.startsWith("['") && key.endsWith("']"));
  return quoted && obj[key.slice(2, -2)] !== undefined ? key.slice(2, -2) : key;
}

/** How v3 reads, writes and removes a field: lodash's paths, or plain keys without dot notation. */
function fieldHelper(dot: boolean) {
  return dot
    ? { get: lodashGet, set: lodashSet, unset: lodashUnset }
    : {
        get: (o: Record<string, unknown>, k: string) => o[plainKey(o, k)],
        set: (o: Record<string, unknown>, k: string, v: unknown) => void (o[plainKey(o, k)] = v),
        unset: (o: Record<string, unknown>, k: string) => void delete o[plainKey(o, k)],
      };
}

/** Which of the input's fields v3 keeps beside the assigned ones. */
async function baseFields(
  ctx: NodeContext,
  json: Record<string, unknown>,
  i: number,
): Promise<Record<string, unknown>> {
  let include: string;
  if (ctx.typeVersion >= 3.3) include = ctx.raw('includeOtherFields', false) ? ctx.raw('include', 'all') : 'none';
  else include = ctx.raw('include', 'all');
  if (include === 'all') return clone(json);
  const dot = (await ctx.param<boolean>('options.dotNotation', i, true)) !== false;
  const fields = fieldHelper(dot);
  if (include === 'selected') {
    // A field is read as lodash's get and kept under its last part after a dot (observed: `a.b`
    // comes out as `b`); without dot notation, under its name as written.
    const out: Record<string, unknown> = {};
    for (const f of fieldList(await ctx.param('includeFields', i, ''))) {
      const v = fields.get(json, f);
      if (v !== undefined) fields.set(out, dot ? (f.split('.').at(-1) ?? f) : f, clone(v));
    }
    return out;
  }
  if (include === 'except') {
    const out = clone(json);
    for (const f of fieldList(await ctx.param('excludeFields', i, ''))) fields.unset(out, f);
    return out;
  }
  return {};
}

async function v3(ctx: NodeContext): Promise<Item[]> {
  const out: Item[] = [];
  const mode = ctx.raw<string>('mode', 'manual');
  // "Duplicate Item" (a setting for testing): in a manual run each item comes out once for each
  // whole number from 0 to the count (1.5 gives 2 copies, a negative count none).
  const count = Number(ctx.raw<number>('duplicateCount', 0));
  const copies =
    ctx.raw<boolean>('duplicateItem', false) && ctx.mode === 'manual' ? (count >= 0 ? Math.floor(count) + 1 : 0) : 1;
  for (let i = 0; i < ctx.items.length; i++) {
    try {
      const item = await v3Item(ctx, mode, i);
      for (let c = 0; c < copies; c++) out.push(item);
    } catch (err) {
      // Under continueOnFail the item fails alone; the engine routes it (regular or error output).
      if (!ctx.continueOnFail) throw err;
      out.push({ json: clone(ctx.items[i].json), error: err, pairedItem: { item: i } });
    }
  }
  return out;
}

async function v3Item(ctx: NodeContext, mode: string, i: number): Promise<Item> {
  {
    const item = ctx.items[i];
    const dot = (await ctx.param<boolean>('options.dotNotation', i, true)) !== false;
    const ignoreErrors = await ctx.param<boolean>('options.ignoreConversionErrors', i, false);
    const json = await baseFields(ctx, item.json, i);
    // As lodash's set: a key named with the dots that is there is written as it is.
    const put = (name: string, value: unknown) => fieldHelper(dot).set(json, name, value);
    if (mode === 'raw') {
      let raw = await rawJsonOutput(ctx, i);
      if (typeof raw === 'string') {
        try {
          raw = JSON.parse(raw);
        } catch (err) {
          try {
            raw = parseLenientJson(raw as string);
          } catch {
            throw new NodeOperationError(
              `The 'JSON Output' in item ${i} contains invalid JSON`,
              (err as Error).message,
            );
          }
        }
      }
      if (!isPlainObject(raw))
        throw new NodeOperationError(`The 'JSON Output' in item ${i} does not contain a valid JSON object`);
      // Written like the manual fields: a dotted key is a path unless dot notation is off.
      for (const [k, v] of Object.entries(raw)) put(k, v);
    } else {
      if (ctx.typeVersion >= 3.3) {
        const assignments = ctx.raw<Assignment[]>('assignments.assignments', []);
        for (let a = 0; a < assignments.length; a++) {
          const name = String((await ctx.param(`assignments.assignments.${a}.name`, i, '')) ?? '');
          const value = await ctx.param<unknown>(`assignments.assignments.${a}.value`, i, undefined);
          put(name, convert(name, assignments[a]?.type ?? 'string', value, i, ignoreErrors, ctx.typeVersion));
        }
      } else {
        // 3.0–3.2: `fields.values[]` = {name, type: stringValue|numberValue|…, <type>: value}.
        const fields = ctx.raw<Array<{ type?: string }>>('fields.values', []);
        for (let f = 0; f < fields.length; f++) {
          const kind = fields[f]?.type ?? 'stringValue';
          const name = String((await ctx.param(`fields.values.${f}.name`, i, '')) ?? '');
          // An absent value is the parameter's default: '' for text, numbers and arrays, "true" for
          // booleans, {} for objects (n8n's description; observed).
          const defaults: Record<string, unknown> = { booleanValue: 'true', objectValue: {} };
          // A value stored as null is absent too.
          const stored = ctx.raw<Array<Record<string, unknown>>>('fields.values', [])[f]?.[kind];
          // An object field's template is filled as the raw mode's JSON (objects as JSON text).
          const value =
            kind === 'objectValue' && typeof stored === 'string' && stored.startsWith('=')
              ? await fillJsonTemplate(ctx, stored, i)
              : stored === null
                ? (defaults[kind] ?? '')
                : await ctx.param<unknown>(`fields.values.${f}.${kind}`, i, defaults[kind] ?? '');
          put(name, convert(name, kind.replace(/Value$/, ''), value, i, ignoreErrors, ctx.typeVersion));
        }
      }
    }
    const out1: Item = { json, pairedItem: { item: i } };
    if (item.binary && !(await ctx.param('options.stripBinary', i, false))) out1.binary = item.binary;
    return out1;
  }
}

async function v1(ctx: NodeContext): Promise<Item[]> {
  const out: Item[] = [];
  const keepOnlySet = ctx.raw('keepOnlySet', false);
  for (let i = 0; i < ctx.items.length; i++) {
    const item = ctx.items[i];
    const dot = await ctx.param<boolean>('options.dotNotation', i, true);
    const json: Record<string, unknown> = keepOnlySet ? {} : clone(item.json);
    for (const type of ['boolean', 'number', 'string'] as const) {
      const list = ctx.raw<Array<{ name?: string }>>(`values.${type}`, []);
      for (let v = 0; v < list.length; v++) {
        const name = String(await ctx.param(`values.${type}.${v}.name`, i, 'propertyName'));
        let value = await ctx.param<unknown>(
          `values.${type}.${v}.value`,
          i,
          type === 'boolean' ? false : type === 'number' ? 0 : '',
        );
        // v1/v2 convert loosely (observed): truthiness for booleans ("false" is true), numeric
        // strings to numbers, anything else left as it is.
        if (type === 'boolean' && typeof value !== 'boolean') value = !!value;
        if (type === 'number' && typeof value === 'string' && value.trim() !== '' && !Number.isNaN(Number(value)))
          value = Number(value);
        if (dot) lodashSet(json, name, value);
        else json[name] = value;
      }
    }
    out.push({ json, pairedItem: { item: i }, ...(item.binary ? { binary: item.binary } : {}) });
  }
  return out;
}

export default {
  types: ['n8n-nodes-base.set'],
  execute: async (ctx) => [await (ctx.typeVersion >= 3 ? v3(ctx) : v1(ctx))],
} satisfies NodeType;

/**
 * The raw mode's JSON text with its `{{ }}` segments filled in the way n8n fills them there:
 * each segment on its own, objects and arrays as JSON text, everything else through String()
 * (so null gives "null" and a missing value "undefined", which the lenient reading takes as
 * null). Plain interpolation would write "[object Object]" instead.
 */
/** The raw mode's JSON when the parameter is absent: n8n's default text. */
const RAW_DEFAULT = '{\n  "my_field_1": "value",\n  "my_field_2": 1\n}\n';

async function rawJsonOutput(ctx: NodeContext, i: number): Promise<unknown> {
  const source = ctx.raw<unknown>('jsonOutput', RAW_DEFAULT);
  if (typeof source !== 'string' || !source.startsWith('=')) return source;
  return fillJsonTemplate(ctx, source, i);
}

/** An `=` template of JSON text filled as described above (raw mode, and 3.0–3.2 object fields). */
async function fillJsonTemplate(ctx: NodeContext, source: string, i: number): Promise<string> {
  let text = '';
  for (const chunk of splitTemplate(source.slice(1))) {
    if (chunk.kind === 'text') {
      text += chunk.text;
      continue;
    }
    const value = await ctx.expressions.resolve(`={{${chunk.code}}}`, ctx.expressionData(i), ctx.signal);
    text += value !== null && typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return text;
}
