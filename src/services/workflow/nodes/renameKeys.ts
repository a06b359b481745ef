// Rename Keys: moves values from one (dotted) key to another, then optionally renames keys that
// match a regular expression, down to a given depth (-1: every level). Observed with the oracle
// (n8n 2.8.4, and the fuzzer): keys are read, written and removed as lodash's get, set and unset
// do (a key named with the dots wins over the path; a path reads into strings: "a,b" at
// `tags[0]` is "a"); a key renamed to itself stays; a renamed key moves to the end of its
// object; the regular expression renames the keys of array elements too, and for a text element
// those are its character positions, which cannot be renamed ("Cannot create property 'x' on
// string 'a'"), unless the depth ends at the array; an absent pattern or replacement is ''.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, isPlainObject, lodashGet, writePath } from './util.js';

interface Replacement {
  searchRegex?: string;
  replaceRegex?: string;
  options?: { caseInsensitive?: boolean; depth?: number };
}

/**
 * Renames the keys of `value` that match, then (depth left) of what they hold. `depth` counts
 * levels still to enter (negative: no end); an array takes a level of its own, and its elements
 * are entered whatever they are: a text element's keys are its character positions, which
 * cannot be renamed ("Cannot create property 'x' on string 'a'", as n8n in strict mode).
 */
function renameMatching(value: unknown, re: RegExp, replacement: string, depth: number): void {
  if (Array.isArray(value)) {
    if (depth !== 0) for (const element of value) renameMatching(element, re, replacement, depth - 1);
    return;
  }
  if (typeof value === 'string') {
    for (let k = 0; k < value.length; k++) {
      const renamed = String(k).replace(re, replacement);
      if (renamed !== String(k))
        throw new NodeOperationError(`Cannot create property '${renamed}' on string '${value}'`);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    if (depth !== 0 && value[k] !== null && typeof value[k] === 'object')
      renameMatching(value[k], re, replacement, depth - 1);
    const renamed = k.replace(re, replacement);
    if (renamed === k) continue;
    value[renamed] = value[k];
    delete value[k];
  }
}

/** Writes as lodash's set: an existing key named with the dots is written as it is. */
function setKey(json: Record<string, unknown>, key: string, value: unknown): void {
  if (Object.hasOwn(json, key)) json[key] = value;
  else writePath(json, key, value);
}

export default {
  types: ['n8n-nodes-base.renameKeys'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      const json = clone(item.json);
      const pairs = await ctx.param<Array<{ currentKey?: string; newKey?: string }>>('keys.key', i, []);
      for (const { currentKey, newKey } of pairs ?? []) {
        if (!currentKey || !newKey || currentKey === newKey) continue;
        const value = lodashGet(item.json, currentKey);
        if (value === undefined) continue;
        setKey(json, newKey, clone(value));
        if (Object.hasOwn(json, currentKey)) delete json[currentKey];
        else deletePath(json, currentKey);
      }
      const replacements = await ctx.param<Replacement[]>('additionalOptions.regexReplacement.replacements', i, []);
      for (const r of replacements ?? []) {
        const re = new RegExp(r.searchRegex ?? '', r.options?.caseInsensitive ? 'i' : undefined);
        renameMatching(json, re, r.replaceRegex ?? '', r.options?.depth ?? -1);
      }
      out.push({ ...item, json, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
