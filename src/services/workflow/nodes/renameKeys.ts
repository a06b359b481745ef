// Rename Keys: moves values from one (dotted) key to another, then optionally renames keys that
// match a regular expression, down to a given depth (-1: every level). Observed with the oracle
// (n8n 2.8.4, and the fuzzer): keys are read, written and removed as lodash's get, set and unset
// do (a key named with the dots wins over the path; a path reads into strings: "a,b" at
// `tags[0]` is "a"); a key renamed to itself stays; a renamed key moves to the end of its
// object; the regular expression renames the keys of array elements too, and for a text element
// those are its character positions, which cannot be renamed ("Cannot create property 'x' on
// string 'a'"); an absent pattern or replacement is ''.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, isPlainObject, lodashGet, writePath } from './util.js';

interface Replacement {
  searchRegex?: string;
  replaceRegex?: string;
  options?: { caseInsensitive?: boolean; depth?: number };
}

function renameMatching(value: unknown, re: RegExp, replacement: string, depth: number, level = 0): void {
  const deeper = depth === -1 || level < depth;
  if (Array.isArray(value)) {
    for (const element of value) {
      if (typeof element === 'string') {
        for (let k = 0; k < element.length; k++) {
          const renamed = String(k).replace(re, replacement);
          if (renamed !== String(k))
            throw new NodeOperationError(`Cannot create property '${renamed}' on string '${element}'`);
        }
      } else renameMatching(element, re, replacement, depth, level);
    }
    return;
  }
  if (!isPlainObject(value)) return;
  for (const k of Object.keys(value)) {
    if (deeper) renameMatching(value[k], re, replacement, depth, level + 1);
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
