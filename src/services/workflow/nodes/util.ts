// Small helpers node files share: dotted paths, cloning, n8n's value conversions, items one by one.
import type { NodeContext } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

export const clone = <T>(v: T): T => (v === undefined ? v : structuredClone(v));

/** Reads `a.b[0].c` style paths. */
export function readPath(obj: unknown, path: string): unknown {
  if (path === '') return obj;
  let cur: unknown = obj;
  for (const key of splitPath(path)) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * A path's value as lodash's get reads it (what n8n's nodes use): a key named with the dots wins
 * over the path, and the path goes into strings too ("a,b" at `tags[0]` is "a").
 */
export function lodashGet(obj: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(obj, path)) return obj[path];
  let cur: unknown = obj;
  for (const key of splitPath(path)) {
    if (cur === null || cur === undefined) return undefined;
    cur = typeof cur === 'string' ? (key === 'length' ? cur.length : cur[Number(key)]) : (cur as any)[key];
  }
  return cur;
}

/** Writes as lodash's set: an existing key named with the dots is written as it is, else the path. */
export function lodashSet(obj: Record<string, unknown>, path: string, value: unknown): void {
  if (Object.hasOwn(obj, path)) obj[path] = value;
  else writePath(obj, path, value);
}

/** Removes as lodash's unset: an existing key named with the dots, else the path. */
export function lodashUnset(obj: Record<string, unknown>, path: string): void {
  if (Object.hasOwn(obj, path)) delete obj[path];
  else deletePath(obj, path);
}

/** Writes a dotted path, creating objects on the way (n8n's dotNotation). */
export function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = splitPath(path);
  let cur: Record<string, unknown> = obj;
  for (let i = 0; i < keys.length - 1; i++) {
    const k = keys[i];
    const next = cur[k];
    if (next === null || typeof next !== 'object') cur[k] = /^\d+$/.test(keys[i + 1]) ? [] : {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]] = value;
}

export function deletePath(obj: Record<string, unknown>, path: string): void {
  const keys = splitPath(path);
  let cur: unknown = obj;
  for (let i = 0; i < keys.length - 1; i++) {
    if (cur === null || typeof cur !== 'object') return;
    cur = (cur as Record<string, unknown>)[keys[i]];
  }
  if (cur && typeof cur === 'object') delete (cur as Record<string, unknown>)[keys[keys.length - 1]];
}

function splitPath(path: string): string[] {
  const out: string[] = [];
  for (const part of path.split('.')) {
    const re = /([^[\]]+)|\[(\d+)\]|\["([^"]*)"\]|\['([^']*)'\]/g;
    let m: RegExpExecArray | null;
    let any = false;
    while ((m = re.exec(part))) {
      any = true;
      out.push(m[1] ?? m[2] ?? m[3] ?? m[4] ?? '');
    }
    if (!any) out.push(part);
  }
  return out;
}

/** Field lists as n8n reads them: "a, b,c", an array, or the older `{fields: [{fieldName}]}` form. */
export const fieldList = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string')
    return v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const fields = (v as { fields?: Array<{ fieldName?: unknown }> } | null)?.fields;
  return Array.isArray(fields) ? fields.map((f) => String(f.fieldName ?? '')).filter(Boolean) : [];
};

export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** What a failed item becomes under continueOnFail, by default: `{error}`, paired with its input. */
const errorItem = (e: unknown, i: number): Item => ({ json: { error: (e as Error).message }, pairedItem: { item: i } });

/**
 * One item out per item in, made by `make(i)`; with continueOnFail, an item that fails becomes
 * `failed(error, i)` (by default `{error}`, paired with its input) and the rest go on, as n8n's
 * nodes do.
 */
export async function eachItem(
  ctx: NodeContext,
  make: (i: number) => Promise<Item>,
  failed: (e: unknown, i: number) => Item = errorItem,
): Promise<Item[]> {
  const out: Item[] = [];
  for (let i = 0; i < ctx.items.length; i++) {
    try {
      out.push(await make(i));
    } catch (e) {
      if (!ctx.continueOnFail) throw e;
      out.push(failed(e, i));
    }
  }
  return out;
}
