// Rename Keys: moves values from one (dotted) key to another, then optionally renames keys that
// match a regular expression, down to a given depth (-1: every level).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone, deletePath, isPlainObject, readPath, writePath } from './util.js';

interface Replacement {
  searchRegex: string;
  replaceRegex: string;
  options?: { caseInsensitive?: boolean; depth?: number };
}

function renameMatching(value: unknown, re: RegExp, replacement: string, depth: number, level = 0): unknown {
  if (Array.isArray(value)) return value.map((v) => renameMatching(v, re, replacement, depth, level));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const deeper = depth === -1 || level < depth;
    const nextValue = deeper ? renameMatching(v, re, replacement, depth, level + 1) : v;
    out[k.replace(re, replacement)] = nextValue;
  }
  return out;
}

export default {
  types: ['n8n-nodes-base.renameKeys'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      let json = clone(item.json);
      const pairs = await ctx.param<Array<{ currentKey: string; newKey: string }>>('keys.key', i, []);
      for (const { currentKey, newKey } of pairs ?? []) {
        if (!currentKey || !newKey) continue;
        const value = readPath(item.json, currentKey);
        if (value === undefined) continue;
        writePath(json, newKey, clone(value));
        deletePath(json, currentKey);
      }
      const replacements = await ctx.param<Replacement[]>('additionalOptions.regexReplacement.replacements', i, []);
      for (const r of replacements ?? []) {
        const re = new RegExp(r.searchRegex, r.options?.caseInsensitive ? 'i' : undefined);
        json = renameMatching(json, re, r.replaceRegex, r.options?.depth ?? -1) as Record<string, unknown>;
      }
      out.push({ ...item, json, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
