// The fuzzer's inputs: items drawn from the shapes that break engines (numbers as strings,
// 'TRUE', null, missing fields, nested objects, arrays of mixed types, unicode, empty items,
// dotted keys, dates in many formats), and the pools parameters draw field names and literals from.
import type { Rng } from './rng.js';

/** Field names items carry and parameters name; `a.b` is a dotted key, `nested.x` a path. */
const FIELDS = [
  'name',
  'age',
  'city',
  'tags',
  'score',
  'active',
  'when',
  'nested',
  'id',
  'html',
  'xml',
  'a.b',
] as const;
/** What parameters refer to: the fields, paths into them, and one no item has. */
const FIELD_REFS = [...FIELDS, 'nested.x', 'nested.list', 'missing', 'tags[0]'] as const;

export const DATES = [
  '2024-03-10T12:30:00.000Z',
  '2024-03-10',
  '2023-12-31T23:59:59+02:00',
  '2024-02-29',
  '2024-03-10 12:30',
  '03/10/2024',
  '10.03.2024',
  'March 10, 2024',
  'Sun, 10 Mar 2024 12:30:00 GMT',
  '1710073800000',
  '1710073800',
  '2024-W10',
  '2024-13-45',
  'not a date',
  '',
] as const;
const DATE_NUMBERS = [1710073800000, 1710073800, 0, -86400000];

const STRINGS = [
  'Ann',
  'Bob',
  'paris',
  'Paris',
  'PARIS',
  '',
  ' ',
  'TRUE',
  'false',
  'null',
  'undefined',
  '0',
  '1',
  '1.5',
  '-3',
  '1e3',
  '007',
  'NaN',
  'Zoë 🚀',
  '北京',
  'Ça va? ✓',
  'a,b',
  'a.b',
  'line\nbreak',
  '<p>hi</p>',
  '{"x":1}',
  '[1,2]',
] as const;
const NUMBERS = [0, 1, -1, 2.5, 31, 100, 1e21, -0.0001, 3] as const;

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** One value of any kind. `depth` bounds nesting. */
function randomValue(rng: Rng, depth = 0): Json {
  const kinds =
    depth > 1
      ? ['string', 'number', 'bool', 'null', 'date']
      : ['string', 'number', 'bool', 'null', 'date', 'array', 'object', 'numString'];
  switch (rng.pick(kinds)) {
    case 'string':
      return rng.pick(STRINGS);
    case 'numString':
      return String(rng.pick(NUMBERS));
    case 'number':
      return rng.pick(NUMBERS);
    case 'bool':
      return rng.chance(0.5);
    case 'null':
      return null;
    case 'date':
      return rng.chance(0.8) ? rng.pick(DATES) : rng.pick(DATE_NUMBERS);
    case 'array':
      return Array.from({ length: rng.int(0, 3) }, () => randomValue(rng, depth + 1));
    default:
      return randomObject(rng, depth + 1);
  }
}

function randomObject(rng: Rng, depth: number): Json {
  const out: Record<string, Json> = {};
  for (const k of rng.subset(['x', 'y', 'list', 'a.b', 'name'], 0.4))
    out[k] = k === 'list' ? [1, 'two', null] : randomValue(rng, depth + 1);
  return out;
}

/** A value for a field, leaning to the field's ordinary kind so conditions have something to match. */
function fieldValue(rng: Rng, field: string): Json {
  if (rng.chance(0.45)) return randomValue(rng);
  switch (field) {
    case 'name':
      return rng.pick(['Ann', 'Bob', 'Cy', 'Zoë 🚀', '李雷', '']);
    case 'age':
      return rng.pick([31, 25, 40, '31', 'x', 0]);
    case 'city':
      return rng.pick(['Paris', 'Berlin', 'paris', 'Zürich', '']);
    case 'tags':
      return rng.pick([['a', 'b'], ['c'], [], ['a', 1, null, { k: 1 }], 'a,b']);
    case 'score':
      return rng.pick([7.5, 3, 9, '7.5', '', -1]);
    case 'active':
      return rng.pick([true, false, 'TRUE', 'false', 1, 0, 'yes']);
    case 'when':
      return rng.pick(DATES);
    case 'nested':
      return rng.pick<Json>([{ x: 1, list: [1, 2] }, { x: 'a', list: [] }, { x: null }, {}]);
    case 'id':
      return rng.pick([1, 2, 3, '1', '2']);
    case 'html':
      return rng.pick([
        '<p>Hello <b>Ann</b></p>',
        '<h1>T</h1><ul><li>x</li><li>y</li></ul>',
        '<a href="https://example.com">l</a>',
        'plain',
        '',
      ]);
    case 'xml':
      return rng.pick([
        '<r><a>1</a><b x="y">t</b></r>',
        '<l><i>1</i><i>2</i></l>',
        '<?xml version="1.0"?><root/>',
        'not xml <',
        '',
      ]);
    default:
      return randomValue(rng);
  }
}

function randomItem(rng: Rng): Record<string, Json> {
  if (rng.chance(0.08)) return {};
  const item: Record<string, Json> = {};
  for (const f of rng.subset(FIELDS, 0.55, 1)) item[f] = fieldValue(rng, f);
  return item;
}

/** A list of items: usually 1–4, sometimes none, sometimes with duplicates (for dedup and grouping). */
export function randomItems(rng: Rng): Array<Record<string, Json>> {
  if (rng.chance(0.05)) return [];
  const items = Array.from({ length: rng.int(1, 4) }, () => randomItem(rng));
  if (items.length > 1 && rng.chance(0.3)) items.push(structuredClone(rng.pick(items)));
  return items;
}

export function fieldRef(rng: Rng): string {
  return rng.pick(FIELD_REFS);
}

export function literal(rng: Rng): Json {
  return rng.chance(0.6) ? rng.pick(STRINGS) : randomValue(rng, 2);
}
