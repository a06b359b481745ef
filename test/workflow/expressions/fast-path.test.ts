// The fast path must answer exactly as the sandbox would: every path below is evaluated both
// ways, over data with every JSON shape, and the answers (or errors) must be equal.

import { afterAll, describe, expect, it } from 'vitest';
import { createExpressions } from '../../../src/services/workflow/expressions/index.js';
import { parsePlainPath } from '../../../src/services/workflow/expressions/fast-path.js';
import { items, makeData } from './helpers.js';

const limits = { timeoutMs: 2000, memoryBytes: 64 * 1024 * 1024 };
const fast = createExpressions(limits);
const slow = createExpressions(limits, { fastPath: false });
afterAll(() => {
  fast.close();
  slow.close();
});

const json = {
  s: 'text',
  empty: '',
  n: 0,
  f: 1.5,
  t: true,
  nil: null,
  arr: [1, 'two', { three: 3 }, [4], null],
  obj: { a: { b: { c: 'deep' } }, 'with space': 1, 'dot.key': 2, 0: 'zero' },
  list: [],
};
const data = makeData({
  input: items(json, { s: 'second' }),
  itemIndex: 0,
  outputs: { Source: items({ id: 7, body: { name: 'n' } }, { id: 8 }), Empty: [] },
  parameters: { Unexecuted: {} },
});

const paths = [
  '$json',
  '$json.s',
  '$json.s.length',
  '$json.empty.length',
  '$json.n',
  '$json.f',
  '$json.t',
  '$json.nil',
  '$json.nil.x',
  '$json.missing',
  '$json.missing.deeper',
  '$json.arr',
  '$json.arr[0]',
  '$json.arr[2].three',
  '$json.arr[3][0]',
  '$json.arr[4]',
  '$json.arr[9]',
  '$json.arr.length',
  '$json.obj.a.b.c',
  "$json.obj['with space']",
  '$json.obj["dot.key"]',
  '$json.obj[0]',
  '$json["obj"]["a"]',
  '$json?.obj?.a',
  '$json.list',
  '$json.list.length',
  '$json.s.x',
  '$json.n.x',
  '$json.t.toString',
  '$json.obj.toString',
  '$json.obj.constructor',
  '$json.arr.first',
  '$json.obj.hasOwnProperty',
  '$json.__proto__',
  '$binary',
  '$itemIndex',
  '$runIndex',
  '$input.item.json.s',
  '$input.first().json.s',
  '$input.last().json.s',
  '$input.item.binary',
  "$('Source').item.json.id",
  "$('Source').first().json.body.name",
  "$('Source').last().json.id",
  "$('Source').item.json.body['name']",
  "$('Empty').first().json",
  "$('Nope').item.json",
  "$('Unexecuted').first().json",
  '$node["Source"].json.id',
  "$node['Source'].json.body.name",
  '$node.Source.json.id',
  '$node["Nope"].json',
];

describe('fast path and sandbox agree', () => {
  it('every path here is one the fast path parses', async () => {
    const notPlain = paths.filter((p) => !parsePlainPath(p));
    expect(notPlain).toEqual([]);
  });

  for (const path of paths) {
    for (const template of [`={{ ${path} }}`, `=[{{ ${path} }}]`]) {
      it(template, async () => {
        const outcome = async (ex: typeof fast) => {
          try {
            return { value: await ex.resolve(template, data) };
          } catch (error) {
            return { error: (error as Error).message };
          }
        };
        expect(await outcome(fast)).toEqual(await outcome(slow));
      });
    }
  }

  it('does not take calls, operators or unusual syntax', async () => {
    for (const code of [
      '$json.s.toUpperCase()',
      '$json.n + 1',
      '$json[`s`]',
      '$json.s ?? 1',
      "$json['a\\'b']",
      '$json[0 + 1]',
      'json.s',
      '$jsonx',
      '$("Source")',
    ]) {
      expect(parsePlainPath(code), code).toBeUndefined();
    }
  });
});
