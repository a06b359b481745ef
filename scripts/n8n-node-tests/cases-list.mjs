import { createHmac } from 'node:crypto';
import { EC_PRIVATE, EC_PUBLIC, RSA_PRIVATE, RSA_PUBLIC } from './test-keys.mjs';

// The nt-* oracle cases (see cases.mjs): per finding of the conformance run, a workflow written
// for this project and inputs that pin the rule down. Grouped by node.
const N = (name, type, typeVersion, parameters, extra = {}) => ({ name, type, typeVersion, parameters, ...extra });
const fv = (values) => ({ values });
const asg = (list) => ({ assignments: list.map(([name, type, value], i) => ({ id: `a${i}`, name, type, value })) });

export const CASES = [];
const add = (name, spec) => CASES.push({ name, ...spec });

// ---- Summarize ----------------------------------------------------------------------------------
// Groups nest field by field (first split field's first-seen order, then the next within it);
// counting skips empty values unless includeEmpty; v1 names groups as text, v1.1 keeps the type.
const sales = [
  { region: 'north', kind: 'b', v: 1, note: 'x', tag: null },
  { region: 'south', kind: 'a', v: 2, note: '', tag: 0 },
  { region: 'north', kind: 'a', v: 3, note: null, tag: '0' },
  { region: 'east', kind: 'b', v: 4, tag: false },
  { region: 'south', kind: 'b', v: 5, note: [], tag: 'null' },
  { region: 'north', kind: 'b', v: 6, note: {}, tag: true },
  { region: 'east', kind: 'a', v: 7, note: 'x', tag: { a: 1 } },
  { kind: 'a', v: 8, note: 0, tag: [1] },
];
const summaries = (aggs) => fv(aggs.map(([aggregation, field, more = {}]) => ({ aggregation, field, ...more })));
add('summarize-nested-groups', {
  nodes: [
    N('Two splits', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['append', 'v'],
        ['sum', 'v'],
      ]),
      fieldsToSplitBy: 'region, kind',
      options: {},
    }),
    N('Two splits v1', 'summarize', 1, {
      fieldsToSummarize: summaries([
        ['count', 'v'],
        ['concatenate', 'v', { separateBy: ', ' }],
      ]),
      fieldsToSplitBy: 'region, kind',
      options: {},
    }),
    N('Single item', 'summarize', 1.1, {
      fieldsToSummarize: summaries([['max', 'v']]),
      fieldsToSplitBy: 'region, kind',
      options: { outputFormat: 'singleItem' },
    }),
  ],
  bodies: { sales },
});
add('summarize-empty-values', {
  nodes: [
    N('Count', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['count', 'note'],
        ['countUnique', 'note'],
        ['count', 'tag'],
        ['countUnique', 'tag'],
      ]),
      options: {},
    }),
    N('Count with empty', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['count', 'note', { includeEmpty: true }],
        ['countUnique', 'note', { includeEmpty: true }],
        ['countUnique', 'tag', { includeEmpty: true }],
      ]),
      options: {},
    }),
    N('Append and join', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['append', 'note'],
        ['append', 'note', { includeEmpty: true }],
        ['concatenate', 'note', { separateBy: 'other', customSeparator: '|' }],
        ['concatenate', 'tag', { separateBy: ', ', includeEmpty: true }],
      ]),
      options: {},
    }),
    N('Count v1', 'summarize', 1, {
      fieldsToSummarize: summaries([
        ['count', 'note'],
        ['countUnique', 'note', { includeEmpty: true }],
      ]),
      options: {},
    }),
  ],
  bodies: { sales },
});
add('summarize-group-types', {
  nodes: [
    N('By tag v1', 'summarize', 1, {
      fieldsToSummarize: summaries([['append', 'v']]),
      fieldsToSplitBy: 'tag',
      options: {},
    }),
    N('By tag v1.1', 'summarize', 1.1, {
      fieldsToSummarize: summaries([['append', 'v']]),
      fieldsToSplitBy: 'tag',
      options: {},
    }),
    N('By region v1.1', 'summarize', 1.1, {
      fieldsToSummarize: summaries([['count', 'v']]),
      fieldsToSplitBy: 'region',
      options: {},
    }),
  ],
  bodies: { sales },
});
add('summarize-dot-keys', {
  nodes: [
    N('Dots', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['append', 'p.q'],
        ['sum', 'p.n'],
      ]),
      options: {},
    }),
    N('No dots', 'summarize', 1.1, {
      fieldsToSummarize: summaries([
        ['append', 'p.q'],
        ['sum', 'p.n'],
      ]),
      options: { disableDotNotation: true },
    }),
    N('Split by dotted', 'summarize', 1.1, {
      fieldsToSummarize: summaries([['count', 'k']]),
      fieldsToSplitBy: 'p.q',
      options: {},
    }),
  ],
  bodies: {
    dotted: [
      { 'p.q': 'flat', p: { q: 'deep1', n: 1 }, 'p.n': 100, k: 1 },
      { p: { q: 'deep2', n: 2 }, k: 2 },
      { p: { n: 3 }, k: 3 },
      { 'p.q': 'flat2', k: 4 },
    ],
  },
});

// ---- Split Out and Item Lists' split -----------------------------------------------------------
// With other fields kept, an object element stays under the field's name; alone it is spread.
const nested = [
  { list: [{ id: 1, c: 'a' }, { id: 2, c: 'b' }, 'plain', [9]], other: 'o1', more: { m: 1 } },
  { list: { first: { id: 3 }, second: 'two' }, other: 'o2', more: null },
  { list: 'single', other: 'o3' },
  { list: null, other: 'o4' },
  { list: [], other: 'o5' },
];
const splitVariants = (type, v) => [
  N(`${type} ${v} alone`, type, v, { fieldToSplitOut: 'list', options: {} }),
  N(`${type} ${v} all others`, type, v, { fieldToSplitOut: 'list', include: 'allOtherFields', options: {} }),
  N(`${type} ${v} selected`, type, v, {
    fieldToSplitOut: 'list',
    include: 'selectedOtherFields',
    fieldsToInclude: type === 'itemLists' && v < 3 ? { fields: [{ fieldName: 'other' }] } : 'other',
    options: {},
  }),
  N(`${type} ${v} destination`, type, v, { fieldToSplitOut: 'list', options: { destinationFieldName: 'to' } }),
];
add('split-out-objects', {
  nodes: [
    ...splitVariants('splitOut', 1),
    N('splitOut 1 others destination', 'splitOut', 1, {
      fieldToSplitOut: 'list',
      include: 'allOtherFields',
      options: { destinationFieldName: 'to' },
    }),
  ],
  bodies: { nested },
});
add('item-lists-1-split-objects', {
  nodes: splitVariants('itemLists', 1),
  bodies: {
    arrays: [nested[0], nested[4], { list: [{ id: 5 }, null, 3], other: 'o6' }],
    text: [{ list: 'single' }],
    nul: [{ list: null }],
    object: [{ list: { a: 1 } }],
  },
});
add('item-lists-3-split-objects', { nodes: splitVariants('itemLists', 3), bodies: { nested } });
const zipped = [{ a: [1, 2, 3], b: ['x', 'y'], o: { k1: 'v1', k2: 'v2' }, s: 'solo', n: null, keep: 'k' }];
add('split-out-several-fields', {
  nodes: [
    N('Two arrays', 'splitOut', 1, { fieldToSplitOut: 'a, b', options: {} }),
    N('Array and object', 'splitOut', 1, { fieldToSplitOut: 'o, a', include: 'allOtherFields', options: {} }),
    N('Array and single', 'splitOut', 1, {
      fieldToSplitOut: 'b, s',
      include: 'selectedOtherFields',
      fieldsToInclude: 'keep',
      options: { destinationFieldName: 'first, second' },
    }),
    N('Single and null', 'splitOut', 1, { fieldToSplitOut: 's, n', options: { destinationFieldName: 'x, y' } }),
    N('Item Lists 2.2', 'itemLists', 2.2, { fieldToSplitOut: 'a, o', options: {} }),
  ],
  bodies: { zipped },
});
add('split-out-missing-field', {
  nodes: [
    N('Split Out', 'splitOut', 1, { fieldToSplitOut: 'nope', options: {} }, { continueOnFail: true }),
    N('Item Lists 2', 'itemLists', 2, { fieldToSplitOut: 'nope', options: {} }, { continueOnFail: true }),
    N('Item Lists 2.1', 'itemLists', 2.1, { fieldToSplitOut: 'nope', options: {} }, { alwaysOutputData: true }),
    N('Item Lists 3', 'itemLists', 3, { fieldToSplitOut: 'nope', options: {} }),
  ],
  bodies: { rows: [{ a: 1 }, { a: 2 }] },
});

// ---- Remove Duplicates: removeOtherFields --------------------------------------------------------
const dupes = [
  { id: 1, name: 'Ann', age: 30, meta: { city: 'P' } },
  { id: 1, name: 'Ann', age: 31, meta: { city: 'P' } },
  { id: 2, name: 'Bob', age: 40, meta: { city: 'B' } },
  { id: 2, name: 'Bob', age: 40, meta: { city: 'R' } },
];
add('remove-duplicates-other-fields', {
  nodes: [
    N('Selected', 'removeDuplicates', 1, {
      compare: 'selectedFields',
      fieldsToCompare: 'name, meta.city',
      options: { removeOtherFields: true },
    }),
    N('Except', 'removeDuplicates', 1, {
      compare: 'allFieldsExcept',
      fieldsToExclude: 'age',
      options: { removeOtherFields: true },
    }),
    N('Except v2', 'removeDuplicates', 2, {
      compare: 'allFieldsExcept',
      fieldsToExclude: 'age, meta.city',
      options: { removeOtherFields: true },
    }),
    N('Item Lists 1', 'itemLists', 1, {
      operation: 'removeDuplicates',
      compare: 'selectedFields',
      fieldsToCompare: { fields: [{ fieldName: 'id' }] },
      options: { removeOtherFields: true },
    }),
    N('Item Lists 3', 'itemLists', 3, {
      operation: 'removeDuplicates',
      compare: 'allFieldsExcept',
      fieldsToExclude: 'age',
      options: { removeOtherFields: true },
    }),
  ],
  bodies: { dupes },
});

// ---- Edit Fields (Set) 3.x conversions -----------------------------------------------------------
const conversions = [
  {
    s: {
      t: 'TRUE',
      f: 'False',
      one: '1',
      zero: '0',
      yes: 'yes',
      sp: ' ',
      e: '',
      n: '3',
      dec: '3.5',
      comma: '3,5',
      arr: "['a', 'b']",
      arrJ: '[1, 2]',
      obj: '{"a": 1}',
      objJs: "{a: 1, 'b': 'c'}",
      nul: 'null',
    },
    num: { zero: 0, one: 1, two: 2, neg: -1 },
    b: { t: true, f: false },
    a: [1, 2],
    o: { k: 1 },
    nil: null,
  },
];
const setFields = (v, type, fields, options = {}) => {
  const key = `${type}Value`;
  return v >= 3.3
    ? { assignments: asg(fields.map(([name, value]) => [name, type, value])), options }
    : { fields: fv(fields.map(([name, value]) => ({ name, type: key, [key]: value }))), include: 'none', options };
};
for (const v of [3, 3.2, 3.4]) {
  const name = String(v).replace('.', '-');
  add(`set-${name}-to-boolean`, {
    nodes: [
      N(
        'Strict',
        'set',
        v,
        setFields(v, 'boolean', [
          ['t', '={{ $json.s.t }}'],
          ['f', '={{ $json.s.f }}'],
          ['one', '={{ $json.s.one }}'],
          ['zero', '={{ $json.s.zero }}'],
          ['n0', '={{ $json.num.zero }}'],
          ['n1', '={{ $json.num.one }}'],
          ['b', '={{ $json.b.f }}'],
          ['a', '={{ [1] }}'],
        ]),
      ),
      N('Bad two', 'set', v, setFields(v, 'boolean', [['two', '={{ $json.num.two }}']]), {
        onError: 'continueRegularOutput',
      }),
      N('Bad yes', 'set', v, setFields(v, 'boolean', [['yes', '={{ $json.s.yes }}']]), {
        onError: 'continueRegularOutput',
      }),
      N('Bad blank', 'set', v, setFields(v, 'boolean', [['sp', '={{ $json.s.sp }}']]), {
        onError: 'continueRegularOutput',
      }),
      N(
        'Ignoring',
        'set',
        v,
        setFields(
          v,
          'boolean',
          [
            ['yes', '={{ $json.s.yes }}'],
            ['two', '={{ $json.num.two }}'],
            ['sp', '={{ $json.s.sp }}'],
            ['e', '={{ $json.s.e }}'],
            ['arr', '={{ $json.s.arr }}'],
          ],
          { ignoreConversionErrors: true },
        ),
      ),
    ],
    bodies: { conversions },
  });
  add(`set-${name}-to-number-array-object`, {
    nodes: [
      N(
        'Numbers',
        'set',
        v,
        setFields(v, 'number', [
          ['n', '={{ $json.s.n }}'],
          ['dec', '={{ $json.s.dec }}'],
          ['sp', '={{ $json.s.sp }}'],
          ['e', '={{ $json.s.e }}'],
          ['t', '={{ $json.b.t }}'],
          ['a', '={{ [7] }}'],
        ]),
      ),
      N('Bad comma', 'set', v, setFields(v, 'number', [['comma', '={{ $json.s.comma }}']]), {
        onError: 'continueRegularOutput',
      }),
      N(
        'Numbers ignoring',
        'set',
        v,
        setFields(
          v,
          'number',
          [
            ['comma', '={{ $json.s.comma }}'],
            ['yes', '={{ $json.s.yes }}'],
            ['o', '={{ $json.o }}'],
          ],
          { ignoreConversionErrors: true },
        ),
      ),
      N(
        'Arrays',
        'set',
        v,
        setFields(v, 'array', [
          ['arr', '={{ $json.s.arr }}'],
          ['arrJ', '={{ $json.s.arrJ }}'],
          ['a', '={{ $json.a }}'],
        ]),
      ),
      N('Bad array', 'set', v, setFields(v, 'array', [['x', '={{ $json.s.yes }}']]), {
        onError: 'continueRegularOutput',
      }),
      N(
        'Arrays ignoring',
        'set',
        v,
        setFields(
          v,
          'array',
          [
            ['x', '={{ $json.s.yes }}'],
            ['o', '={{ $json.o }}'],
            ['n', '={{ $json.num.one }}'],
          ],
          { ignoreConversionErrors: true },
        ),
      ),
      N(
        'Objects',
        'set',
        v,
        setFields(v, 'object', [
          ['obj', '={{ $json.s.obj }}'],
          ['objJs', '={{ $json.s.objJs }}'],
          ['o', '={{ $json.o }}'],
        ]),
      ),
      N('Bad object', 'set', v, setFields(v, 'object', [['x', '={{ $json.a }}']]), {
        onError: 'continueRegularOutput',
      }),
      N(
        'Objects ignoring',
        'set',
        v,
        setFields(
          v,
          'object',
          [
            ['x', '={{ $json.a }}'],
            ['y', '={{ $json.s.yes }}'],
            ['nul', '={{ $json.s.nul }}'],
          ],
          { ignoreConversionErrors: true },
        ),
      ),
    ],
    bodies: { conversions },
  });
  add(`set-${name}-null-values`, {
    nodes: ['string', 'number', 'boolean', 'array', 'object'].flatMap((type) => [
      N(
        `${type}`,
        'set',
        v,
        setFields(v, type, [
          ['nul', '={{ null }}'],
          ['undef', '={{ undefined }}'],
          ['missing', '={{ $json.nope }}'],
          ['nil', '={{ $json.nil }}'],
        ]),
      ),
      N(
        `${type} ignoring`,
        'set',
        v,
        setFields(
          v,
          type,
          [
            ['nul', '={{ null }}'],
            ['undef', '={{ undefined }}'],
            ['missing', '={{ $json.nope }}'],
            ['nil', '={{ $json.nil }}'],
          ],
          { ignoreConversionErrors: true },
        ),
      ),
    ]),
    bodies: { conversions },
  });
}

// ---- IF v2 / Filter: conditions without a typeValidation option ----------------------------------
const cond = (leftValue, type, operation, rightValue) => ({ leftValue, rightValue, operator: { type, operation } });
const looseRows = [
  { n: 1, s: '1', big: '12', word: 'ten', t: 'true', no: false },
  { n: 5, s: '5', big: 3, word: 'x', t: 'yes', no: 0 },
];
for (const [label, options] of [
  ['none', { caseSensitive: true, leftValue: '' }],
  ['strict', { caseSensitive: true, leftValue: '', typeValidation: 'strict' }],
  ['v2-none', { caseSensitive: true, leftValue: '', version: 2 }],
]) {
  add(`if-2-no-type-validation-${label}`, {
    nodes: [
      N('Number literal', 'if', 2, {
        conditions: { options, conditions: [cond('={{ $json.n }}', 'number', 'equals', '1')], combinator: 'and' },
        options: {},
      }),
      N('Number from text', 'if', 2, {
        conditions: { options, conditions: [cond('={{ $json.big }}', 'number', 'gt', 10)], combinator: 'and' },
        options: {},
      }),
      N('Boolean text', 'if', 2.2, {
        conditions: { options, conditions: [cond('={{ $json.t }}', 'boolean', 'true')], combinator: 'and' },
        options: {},
      }),
      N('Filter number', 'filter', 2, {
        conditions: { options, conditions: [cond('={{ $json.s }}', 'number', 'lt', '3')], combinator: 'and' },
        options: {},
      }),
    ],
    bodies: { numbers: looseRows.slice(0, 1), words: looseRows },
  });
}

// ---- Filter v1: combineConditions -----------------------------------------------------------------
const people = [
  { id: 1, name: 'Ann', ok: false, when: '2011-10-05T14:48:00.000Z', note: null },
  { id: 2, name: 'Bob', ok: true, when: '2020-10-05T14:48:00.000Z', note: 'n' },
  { id: 3, name: 'Cy', ok: true, when: '2022-10-05T14:48:00.000Z', note: '' },
];
add('filter-1-combine', {
  nodes: [
    N('Or', 'filter', 1, {
      conditions: {
        boolean: [{ value1: '={{ $json.ok }}', value2: true }],
        number: [{ value1: '={{ $json.id }}', operation: 'equal', value2: 1 }],
      },
      combineConditions: 'OR',
    }),
    N('And', 'filter', 1, {
      conditions: {
        boolean: [{ value1: '={{ $json.ok }}', value2: true }],
        number: [{ value1: '={{ $json.id }}', operation: 'larger', value2: 2 }],
      },
      combineConditions: 'AND',
    }),
    N('Dates or', 'filter', 1, {
      conditions: {
        dateTime: [
          { value1: '={{ $json.when }}', value2: '2021-01-01T00:00:00.000Z' },
          { value1: '={{ $json.when }}', operation: 'before', value2: '2012-01-01T00:00:00.000Z' },
        ],
      },
      combineConditions: 'OR',
    }),
    N('If v1 any', 'if', 1, {
      conditions: {
        string: [{ value1: '={{ $json.name }}', value2: 'Ann' }],
        number: [{ value1: '={{ $json.id }}', operation: 'larger', value2: 2 }],
      },
      combineOperation: 'any',
    }),
  ],
  bodies: { people },
});

// ---- Code: `item` in each-item mode (v1 legacy syntax), output checks under onError --------------
add('code-each-item-legacy', {
  nodes: [
    N('Item v1', 'code', 1, { mode: 'runOnceForEachItem', jsCode: 'item.json.seen = item.json.v * 2;\nreturn item;' }),
    N('Item v2', 'code', 2, {
      mode: 'runOnceForEachItem',
      jsCode: 'return { json: { kind: typeof item, same: item === $input.item, v: item.json.v } };',
    }),
    N('Async v1', 'code', 1, {
      mode: 'runOnceForEachItem',
      jsCode: 'const j = $input.item.json;\nj.later = await new Promise((r) => r(j.v + 1));\nreturn $input.item;',
    }),
  ],
  bodies: { two: [{ v: 1 }, { v: 2 }] },
});
for (const onError of ['continueErrorOutput', 'continueRegularOutput']) {
  add(`code-bad-json-${onError}`, {
    nodes: [
      N('All', 'code', 2, { jsCode: 'return { json: "text" };' }, { onError }),
      N('Each', 'code', 2, { mode: 'runOnceForEachItem', jsCode: 'return { json: 5 };' }, { onError }),
      N('After all', 'noOp', 1, {}),
      N('After each', 'noOp', 1, {}),
      N('Errors of all', 'noOp', 1, {}),
      N('Errors of each', 'noOp', 1, {}),
    ],
    connections: {
      Input: [[['All'], ['Each']]],
      All: [[['After all']], [['Errors of all']]],
      Each: [[['After each']], [['Errors of each']]],
    },
    bodies: { one: [{ v: 1 }], two: [{ v: 1 }, { v: 2 }] },
  });
}

add('code-bad-output-manual', {
  manual: true,
  nodes: [
    N('All', 'code', 2, { jsCode: 'return { json: "text" };' }, { onError: 'continueErrorOutput' }),
    N('Errors', 'noOp', 1, {}),
  ],
  connections: { Manual: [[['All']]], All: [[], [['Errors']]] },
});
add('code-bad-output-kinds', {
  nodes: [
    N('Not items', 'code', 2, { jsCode: 'return 5;' }, { onError: 'continueRegularOutput' }),
    N('Unknown key', 'code', 2, { jsCode: 'return [{ json: {}, extra: 1 }];' }, { onError: 'continueRegularOutput' }),
    N('Not an object', 'code', 2, { jsCode: 'return ["text"];' }, { onError: 'continueRegularOutput' }),
    N('Error output only', 'code', 2, { jsCode: 'return { json: "text" };' }, { onError: 'continueErrorOutput' }),
    N('Errors', 'noOp', 1, {}),
  ],
  connections: {
    Input: [[['Not items'], ['Unknown key'], ['Not an object'], ['Error output only']]],
    'Error output only': [[], [['Errors']]],
  },
  bodies: { one: [{ v: 1 }] },
});

// ---- Errors a node does not catch: under continueOnFail the input passes on ---------------------
for (const [label, flags] of [
  ['legacy', { continueOnFail: true }],
  ['regular', { onError: 'continueRegularOutput' }],
  ['error-output', { onError: 'continueErrorOutput' }],
]) {
  add(`uncaught-errors-${label}`, {
    nodes: [
      N('Item Lists', 'itemLists', 2, { fieldToSplitOut: 'nope', options: {} }, flags),
      N(
        'Aggregate',
        'aggregate',
        1,
        { fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'nope' }] }, options: {} },
        flags,
      ),
      N(
        'Summarize',
        'summarize',
        1,
        { fieldsToSummarize: fv([{ aggregation: 'sum', field: 'nope' }]), options: {} },
        flags,
      ),
      N(
        'Merge',
        'merge',
        2,
        { mode: 'combine', mergeByFields: fv([{ field1: 'nope', field2: 'nope' }]), options: {} },
        flags,
      ),
      N('Stop', 'stopAndError', 1, { errorMessage: 'boom' }, flags),
      N('Next', 'noOp', 1, {}),
      N('Failed', 'noOp', 1, {}),
    ],
    connections: {
      Input: [[['Item Lists'], ['Aggregate'], ['Summarize'], ['Merge', 0], ['Merge', 1], ['Stop']]],
      Stop: [[['Next']], [['Failed']]],
      'Item Lists': [[['Next']], [['Failed']]],
      Aggregate: [[['Next']], [['Failed']]],
      Summarize: [[['Next']], [['Failed']]],
      Merge: [[['Next']], [['Failed']]],
    },
    bodies: { rows: [{ a: 1 }, { a: 2 }] },
  });
}

// ---- Compare Datasets -------------------------------------------------------------------------------
const fuzzyA = [
  { id: '1', v: [1, 2] },
  { id: 2, v: 25 },
  { id: 3, v: true },
  { id: 4, v: false },
  { id: 5, v: null },
  { id: 6, v: '' },
  { id: 7, v: {} },
  { id: 8, v: 'same' },
  { id: 9, v: 1 },
  { id: 10, v: '0' },
  { id: 11, v: 'x' },
  { id: 12, v: [] },
];
const fuzzyB = [
  { id: 1, v: '[1,2]' },
  { id: 2, v: '25' },
  { id: 3, v: 'TRUE' },
  { id: 4, v: 0 },
  { id: 5, v: [] },
  { id: 6, v: null },
  { id: 7, v: '{}' },
  { id: '8', v: 'same' },
  { id: 9, v: true },
  { id: 10, v: false },
  { id: 11, v: 'X' },
  { id: 12, v: '' },
];
const cmp = (name, v, params) =>
  N(name, 'compareDatasets', v, { mergeByFields: fv([{ field1: 'id', field2: 'id' }]), ...params });
// One workflow per node: n8n's Compare Datasets writes into the items it was given, so nodes
// sharing inputs would see (and record) each other's changes.
const addEach = (prefix, nodes, bodies) => {
  for (const n of nodes)
    add(`${prefix}-${n.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, { inputs: 2, nodes: [n], bodies });
};
addEach(
  'compare-fuzzy',
  [
    cmp('v1', 1, { options: { fuzzyCompare: true } }),
    cmp('v1 prefer 1', 1, { resolve: 'preferInput1', options: { fuzzyCompare: true } }),
    cmp('v1 both', 1, { resolve: 'includeBoth', options: { fuzzyCompare: true } }),
    cmp('v2', 2, { fuzzyCompare: true, options: {} }),
    cmp('v2.1 both', 2.1, { resolve: 'includeBoth', fuzzyCompare: true, options: {} }),
    cmp('v2.3', 2.3, { fuzzyCompare: true, options: {} }),
    cmp('v2.3 strict', 2.3, { options: {} }),
  ],
  { fuzzy: { a: fuzzyA, b: fuzzyB } },
);
const gaps = {
  a: [
    { id: 1, x: null, y: [], only: 'a', e: '' },
    { id: 2, k: 1 },
  ],
  b: [
    { id: 1, x: [], y: null, other: 'b' },
    { id: 2, k: 1, extra: null },
  ],
};
addEach(
  'compare-missing',
  [
    cmp('v2 fuzzy', 2, { resolve: 'includeBoth', fuzzyCompare: true, options: {} }),
    cmp('v2.1 fuzzy', 2.1, { resolve: 'includeBoth', fuzzyCompare: true, options: {} }),
    cmp('v2.3 strict', 2.3, { resolve: 'includeBoth', options: {} }),
  ],
  { gaps },
);
const deepA = [
  { id: 1, d: { name: 'Ann', age: 31, on: true }, at: { city: 'Oslo', cc: 'NO' } },
  { id: 2, d: { name: 'Bob', age: 26, on: true }, at: { city: 'Rome', cc: 'IT' } },
  { id: 3, d: { name: 'Cy', age: 36, on: true }, at: { city: 'Lima', cc: 'PE' }, n: 1 },
];
const deepB = [
  { id: 1, d: { name: 'Ann', age: 30, on: false }, at: { city: 'Oslo', cc: 'no' } },
  { id: 2, d: { name: 'Bob', age: 26, on: true }, at: { city: 'Rome', cc: 'it' } },
  { id: 3, d: { name: 'Cy', age: 36, on: true }, at: { city: 'Lima', cc: 'PE' }, n: 2 },
];
addEach(
  'compare-skip',
  [
    cmp('Objects', 2.3, { options: { skipFields: 'd, at' } }),
    cmp('Leaves', 2.3, { options: { skipFields: 'd.age, d.on, at.cc' } }),
    cmp('One leaf', 2.3, { options: { skipFields: 'at.cc' } }),
    cmp('Top and leaf', 2.3, { options: { skipFields: 'n, d.age' } }),
    cmp('v1', 1, { options: { skipFields: 'at.cc, n' } }),
    cmp('Fuzzy', 2.3, { fuzzyCompare: true, options: { skipFields: 'at.cc' } }),
    cmp('No dots', 2.3, { options: { skipFields: 'at.cc', disableDotNotation: true } }),
  ],
  { deep: { a: deepA, b: deepB } },
);
addEach(
  'compare-resolve',
  [
    cmp('Prefer A', 2.3, { resolve: 'preferInput1', options: {} }),
    cmp('Prefer B', 2.3, { resolve: 'preferInput2', options: {} }),
    cmp('Mix', 2.3, { resolve: 'mix', preferWhenMix: 'input1', exceptWhenMix: 'at', options: {} }),
    cmp('Mix B', 2.3, { resolve: 'mix', preferWhenMix: 'input2', exceptWhenMix: 'd.age, n', options: {} }),
    cmp('Both', 2.3, { resolve: 'includeBoth', options: {} }),
    cmp('Default 2.3', 2.3, { options: {} }),
    cmp('v1 default', 1, { options: {} }),
    cmp('v2 default', 2, { options: {} }),
  ],
  {
    deep: { a: deepA, b: deepB },
    multi: {
      a: [
        { id: 1, v: 1 },
        { id: 1, v: 2 },
        { id: 2, v: 3 },
      ],
      b: [
        { id: 1, v: 1 },
        { id: 1, v: 9 },
        { id: 3, v: 4 },
      ],
    },
  },
);

// ---- Date & Time v1: numbers and numeric text as timestamps ----------------------------------------
const stamps = [
  { v: 1682918315906 },
  { v: 1682918315 },
  { v: 1682918315.906 },
  { v: '1682918315906' },
  { v: '1682918315' },
  { v: '1682918315.906' },
  { v: 99999999999 },
  { v: 100000000000 },
  { v: 0 },
  { v: '0' },
  { v: 31 },
  { v: '31' },
  { v: -5 },
  { v: ' 42 ' },
  { v: '1e3' },
];
add('datetime-1-timestamps', {
  nodes: [
    N(
      'Format',
      'dateTime',
      1,
      { value: '={{ $json.v }}', toFormat: 'YYYY-MM-DD HH:mm:ss', options: {} },
      { continueOnFail: true },
    ),
    N(
      'Calculate',
      'dateTime',
      1,
      { action: 'calculate', value: '={{ $json.v }}', duration: 1, options: {} },
      { continueOnFail: true },
    ),
    N(
      'From x',
      'dateTime',
      1,
      { value: '={{ $json.v }}', toFormat: 'YYYY-MM-DD', options: { fromFormat: 'x' } },
      { continueOnFail: true },
    ),
    N(
      'From X',
      'dateTime',
      1,
      { value: '={{ $json.v }}', toFormat: 'YYYY-MM-DD', options: { fromFormat: 'X' } },
      { continueOnFail: true },
    ),
  ],
  bodies: Object.fromEntries(stamps.map((s, i) => [`v${i}`, [s]])),
});

// ---- HTML extraction -----------------------------------------------------------------------------
const page = [
  {
    html: '<html><head><title>T</title><style>p{}</style></head><body>\n<h1>Big  Title</h1>\n<h2>Sub</h2>\n<p>One\r\n line</p><p>Two <b>bold</b> <a href="https://example.com/x">link</a></p>\n<ul><li>a</li><li>b</li></ul><table><tr><th>h</th></tr><tr><td>c</td></tr></table>\n<div class="box" id="d1" data-x="1">Box<br>next</div><img src="/i.png" alt="pic">\n<input id="in" value="val"/><script>var x;</script></body></html>',
  },
];
const extract = (values, options = {}) => ({
  operation: 'extractHtmlContent',
  dataPropertyName: 'html',
  extractionValues: { values },
  options,
});
for (const v of [1, 1.1, 1.2]) {
  add(`html-${String(v).replace('.', '-')}-extract-text`, {
    nodes: [
      N(
        'Body text',
        'html',
        v,
        extract([{ key: 'text', cssSelector: 'body' }], { cleanUpText: false, trimValues: false }),
      ),
      N('Body clean', 'html', v, extract([{ key: 'text', cssSelector: 'body' }])),
      N(
        'Skip',
        'html',
        v,
        extract([{ key: 'text', cssSelector: 'body', skipSelectors: 'a, img, table' }], { cleanUpText: false }),
      ),
      N(
        'Paragraphs',
        'html',
        v,
        extract([
          { key: 'ps', cssSelector: 'p', returnArray: true },
          { key: 'p', cssSelector: 'p' },
        ]),
      ),
      N(
        'Attributes',
        'html',
        v,
        extract([
          { key: 'all', cssSelector: 'div', returnValue: 'attribute' },
          { key: 'one', cssSelector: 'div', returnValue: 'attribute', attribute: 'data-x' },
          { key: 'html', cssSelector: 'div', returnValue: 'html' },
          { key: 'value', cssSelector: '#in', returnValue: 'value' },
        ]),
      ),
    ],
    bodies: { page },
  });
}

// ---- Markdown: HTML → Markdown options ---------------------------------------------------------------
const doc = [
  {
    html: '<h1>Example Domain</h1><p>Some <b>bold</b> and <i>em</i> text, see <a href="https://example.com">Example Domain</a>.</p><ul><li>one</li><li>two</li></ul><pre><code>x = 1</code></pre><p>a</p><p></p><p></p><p>b</p><img src="data:image/png;base64,AAAA">',
  },
];
const md = (options) => ({ html: '={{ $json.html }}', options });
add('markdown-html-options', {
  nodes: [
    N('Default', 'markdown', 1, md({})),
    N(
      'Replace',
      'markdown',
      1,
      md({
        textReplace: fv([
          { pattern: 'Example Domain', replacement: 'REPLACED' },
          { pattern: 'o', replacement: '0' },
        ]),
      }),
    ),
    N('Ignore', 'markdown', 1, md({ ignore: 'h1, ul' })),
    N(
      'Markers',
      'markdown',
      1,
      md({
        bulletMarker: '-',
        emDelimiter: '*',
        strongDelimiter: '__',
        codeFence: '~~~',
        maxConsecutiveNewlines: 1,
        keepDataImages: true,
      }),
    ),
    N(
      'Links',
      'markdown',
      1,
      md({ useInlineLinks: false, useLinkReferenceDefinitions: true, codeBlockStyle: 'indented' }),
    ),
  ],
  bodies: { doc },
});

// ---- Merge v2/v3 -------------------------------------------------------------------------------------
const left = [
  { id: 1, k: 'a', only1: true },
  { id: 2, k: 'b', only1: true },
];
const right = [
  { id: 1, k: 'c', only2: 1 },
  { id: 2, k: 'd', only2: 2 },
  { id: 3, k: 'e', only2: 3 },
];
const clash = (resolveClash) => ({ clashHandling: { values: { resolveClash } } });
add('merge-position-and-multiplex', {
  inputs: 2,
  nodes: [
    ...[2, 2.1, 3].flatMap((v) => {
      const mode = v >= 3 ? { combineBy: 'combineByPosition' } : { combinationMode: 'mergeByPosition' };
      const all = v >= 3 ? { combineBy: 'combineAll' } : { combinationMode: 'multiplex' };
      return [
        N(`Position suffix ${v}`, 'merge', v, { mode: 'combine', ...mode, options: clash('addSuffix') }),
        N(`Position prefer 1 ${v}`, 'merge', v, {
          mode: 'combine',
          ...mode,
          options: { ...clash('preferInput1'), includeUnpaired: true },
        }),
        N(`Every pair suffix ${v}`, 'merge', v, { mode: 'combine', ...all, options: clash('addSuffix') }),
        N(`Every pair prefer 1 ${v}`, 'merge', v, { mode: 'combine', ...all, options: clash('preferInput1') }),
        N(`Every pair prefer 2 ${v}`, 'merge', v, { mode: 'combine', ...all, options: clash('preferInput2') }),
      ];
    }),
  ],
  bodies: { rows: { a: left, b: right } },
});
add('merge-keep-non-matches-empty', {
  inputs: 2,
  nodes: ['both', 'input1', 'input2'].flatMap((from) => [
    N(`Non-matches ${from}`, 'merge', 2.1, {
      mode: 'combine',
      mergeByFields: fv([{ field1: 'id', field2: 'id' }]),
      joinMode: 'keepNonMatches',
      outputDataFrom: from,
      options: {},
    }),
    N(`Everything ${from}`, 'merge', 2.1, {
      mode: 'combine',
      mergeByFields: fv([{ field1: 'id', field2: 'id' }]),
      joinMode: 'keepEverything',
      outputDataFrom: from,
      options: {},
    }),
  ]),
  bodies: { 'a-empty': { a: [], b: right }, 'b-empty': { a: left, b: [] }, both: { a: left, b: right } },
});
add('merge-choose-empty-paired', {
  inputs: 2,
  chain: false,
  nodes: [
    N('Choose', 'merge', 2, { mode: 'chooseBranch', output: 'empty' }),
    N('Choose 2.1', 'merge', 2.1, { mode: 'chooseBranch', output: 'empty' }),
    N('Read both', 'set', 3.4, {
      assignments: asg([
        ['fromA', 'string', "={{ $('A').item.json.id }}"],
        ['fromB', 'string', "={{ $('B').item.json.id }}"],
      ]),
      options: {},
    }),
    N('Read both 2.1', 'set', 3.4, {
      assignments: asg([
        ['fromA', 'string', "={{ $('A').item.json.id }}"],
        ['fromB', 'string', "={{ $('B').item.json.id }}"],
      ]),
      options: {},
    }),
  ],
  connections: {
    A: [
      [
        ['Choose', 0],
        ['Choose 2.1', 0],
      ],
    ],
    B: [
      [
        ['Choose', 1],
        ['Choose 2.1', 1],
      ],
    ],
    Choose: [[['Read both']]],
    'Choose 2.1': [[['Read both 2.1']]],
  },
  bodies: {
    one: { a: [{ id: 'a1' }], b: [{ id: 'b1' }] },
    two: { a: [{ id: 'a1' }, { id: 'a2' }], b: [{ id: 'b1' }] },
  },
});

// ---- Switch v1/v2 rules ----------------------------------------------------------------------------
const switchRows = [
  { d: 0, s: 'first' },
  { d: 1, s: 'second' },
  { d: 2, s: 'third' },
  { d: 3, s: 'fourth' },
  { s: '' },
];
add('switch-legacy-rules', {
  nodes: [
    N('v1 defaults', 'switch', 1, {
      value1: '={{ $json.d }}',
      rules: {
        rules: [{ operation: 'equal' }, { operation: 'equal', value2: 1, output: 1 }, { value2: 2, output: 2 }],
      },
      fallbackOutput: 3,
    }),
    N('v1 string', 'switch', 1, {
      dataType: 'string',
      value1: '={{ $json.s }}',
      rules: { rules: [{ value2: 'first' }, { operation: 'contains', value2: 'ir', output: 2 }, {}] },
      fallbackOutput: 1,
    }),
    N('v2 by position', 'switch', 2, {
      dataType: 'string',
      value1: '={{ $json.s }}',
      rules: {
        rules: [{ value2: 'first', outputKey: 'One' }, { value2: 'second' }, { operation: 'startsWith', value2: 'th' }],
      },
      fallbackOutput: 2,
    }),
    N('v2 number', 'switch', 2, {
      value1: '={{ $json.d }}',
      rules: { rules: [{ operation: 'smaller', value2: 2 }, {}] },
      fallbackOutput: -1,
    }),
    N('v2 extra', 'switch', 2, {
      dataType: 'string',
      value1: '={{ $json.s }}',
      rules: { rules: [{ value2: 'first' }] },
      fallbackOutput: 'extra',
    }),
  ],
  bodies: { rows: switchRows },
});

// ---- Loop Over Items: context values, reset, and $().all(branch, run) ---------------------------------
add('loop-context', {
  manual: false,
  nodes: [
    N('Loop v1', 'splitInBatches', 1, { batchSize: 2, options: {} }),
    N('Loop v2', 'splitInBatches', 2, { batchSize: 2, options: {} }),
    N('Seen v1', 'set', 1, {
      values: {
        string: [
          { name: 'max', value: '={{ $node["Loop v1"].context["maxRunIndex"] }}' },
          { name: 'run', value: '={{ $node["Loop v1"].context["currentRunIndex"] }}' },
          { name: 'left', value: '={{ $node["Loop v1"].context["noItemsLeft"] }}' },
        ],
      },
      options: {},
    }),
    N('Seen v2', 'set', 1, {
      values: {
        string: [
          { name: 'max', value: '={{ $node["Loop v2"].context["maxRunIndex"] }}' },
          { name: 'run', value: '={{ $node["Loop v2"].context["currentRunIndex"] }}' },
          { name: 'done', value: '={{ $node["Loop v2"].context["done"] }}' },
        ],
      },
      options: {},
    }),
    N('More v1', 'if', 1, {
      conditions: { boolean: [{ value1: '={{ $node["Loop v1"].context["noItemsLeft"] }}', value2: true }] },
    }),
    N('Runs', 'code', 2, {
      jsCode:
        'const out = [];\nfor (let r = 0; ; r++) {\n  try { out.push({ json: { r, n: $("Seen v2").all(0, r).length } }); } catch (e) { out.push({ json: { stop: r, caught: typeof e } }); break; }\n}\nreturn out;',
    }),
  ],
  connections: {
    Input: [[['Loop v1'], ['Loop v2']]],
    'Loop v1': [[['Seen v1']]],
    'Seen v1': [[['More v1']]],
    'More v1': [[], [['Loop v1']]],
    'Loop v2': [[['Seen v2']], [['Runs']]],
    'Seen v2': [[['Loop v2']]],
  },
  bodies: { five: [{ i: 1 }, { i: 2 }, { i: 3 }, { i: 4 }, { i: 5 }] },
});
add('loop-reset', {
  nodes: [
    N('Outer', 'splitInBatches', 3, { batchSize: 1, options: {} }),
    N('Make', 'code', 2, { jsCode: 'return [1, 2, 3].map((k) => ({ json: { k: `${$json.o}-${k}-${$runIndex}` } }));' }),
    N('Inner', 'splitInBatches', 3, { batchSize: 2, options: { reset: '={{ $node["Inner"].context["done"] }}' } }),
    N('Work', 'noOp', 1, {}),
    N('Collect', 'code', 2, {
      jsCode:
        'const all = [];\nfor (let r = 0; ; r++) { try { all.push(...$("Work").all(0, r)); } catch { break; } }\nreturn all;',
    }),
  ],
  connections: {
    Input: [[['Outer']]],
    Outer: [[['Collect']], [['Make']]],
    Make: [[['Inner']]],
    Inner: [[['Outer']], [['Work']]],
    Work: [[['Inner']]],
  },
  bodies: { two: [{ o: 'x' }, { o: 'y' }] },
});
add('loop-reset-v2', {
  nodes: [
    N('Outer', 'splitInBatches', 2, { batchSize: 1, options: {} }),
    N('Make', 'code', 2, { jsCode: 'return [1, 2, 3].map((k) => ({ json: { k: `${$json.o}-${k}-${$runIndex}` } }));' }),
    N('Inner', 'splitInBatches', 2, {
      batchSize: 2,
      options: { reset: '={{ $node["Inner"].context["noItemsLeft"] }}' },
    }),
    N('Work', 'noOp', 1, {}),
    N('Last?', 'if', 1, {
      conditions: { boolean: [{ value1: '={{ $node["Inner"].context["noItemsLeft"] }}', value2: true }] },
    }),
    N('Collect', 'code', 2, {
      jsCode:
        'const all = [];\nfor (let r = 0; ; r++) { try { all.push(...$("Work").all(0, r)); } catch { break; } }\nreturn all;',
    }),
  ],
  connections: {
    Input: [[['Outer']]],
    Outer: [[['Make']], [['Collect']]],
    Make: [[['Inner']]],
    Inner: [[['Work']]],
    Work: [[['Last?']]],
    'Last?': [[['Outer']], [['Inner']]],
  },
  bodies: { two: [{ o: 'x' }, { o: 'y' }] },
});

// ---- Customer Datastore (n8n training) and Execution Data --------------------------------------------
add('training-datastore', {
  manual: true,
  nodes: [
    N('All people', 'n8nTrainingCustomerDatastore', 1, { operation: 'getAllPeople', returnAll: true }),
    N('Some people', 'n8nTrainingCustomerDatastore', 1, { operation: 'getAllPeople', limit: 2 }),
    N('Default', 'n8nTrainingCustomerDatastore', 1, { operation: 'getAllPeople' }),
    N('One person', 'n8nTrainingCustomerDatastore', 1, {}),
  ],
  connections: { Manual: [[['All people'], ['Some people'], ['Default'], ['One person']]] },
});
add('training-datastore-items', {
  nodes: [
    N('Per item', 'n8nTrainingCustomerDatastore', 1, { operation: 'getOnePerson' }),
    N('All per item', 'n8nTrainingCustomerDatastore', 1, { operation: 'getAllPeople', limit: 1 }),
  ],
  bodies: { three: [{ a: 1 }, { a: 2 }, { a: 3 }] },
});
add('execution-data', {
  chain: true,
  nodes: [
    N('Save', 'executionData', 1, {
      dataToSave: fv([
        { key: 'id', value: '={{ $json.id }}' },
        { key: 'n', value: '={{ $json.n }}' },
      ]),
    }),
    N('Save 1.1', 'executionData', 1.1, { dataToSave: fv([{ key: 'who', value: '={{ $json.id }}-x' }]) }),
    N('Read', 'set', 3.4, {
      assignments: asg([['custom', 'object', '={{ $execution.customData.getAll() }}']]),
      includeOtherFields: true,
      options: {},
    }),
  ],
  bodies: {
    two: [
      { id: 'a', n: 1 },
      { id: 'b', n: null },
    ],
    none: [],
  },
});

// ---- Convert to File → Extract from File (binary data) ------------------------------------------------
const rows = [
  { id: 1, name: 'Ann "A"', city: 'Oslo, NO', n: 2.5, ok: true, none: null, tags: ['a', 'b'], o: { k: 1 } },
  { id: 2, name: 'Zoë', city: '', n: 0, ok: false, extra: 'only here' },
];
const pair = (label, type, typeVersion, toParams, fromParams) => [
  N(`To ${label}`, 'convertToFile', typeVersion, toParams),
  N(`From ${label}`, 'extractFromFile', 1, fromParams),
];
const fileCase = (name, pairs, body) => {
  const nodes = pairs.flat();
  const connections = { Input: [nodes.filter((n) => n.name.startsWith('To ')).map((n) => [n.name])] };
  for (const n of nodes) if (n.name.startsWith('To ')) connections[n.name] = [[[`From ${n.name.slice(3)}`]]];
  add(name, { nodes, connections, bodies: body });
};
fileCase(
  'files-text-formats',
  [
    pair('csv', 'csv', 1.1, { options: {} }, { options: {} }),
    pair('csv pipe', 'csv', 1.1, { options: { delimiter: '|', headerRow: true } }, { options: { delimiter: '|' } }),
    pair('csv no header', 'csv', 1.1, { options: { headerRow: false } }, { options: { headerRow: false } }),
    pair('csv 1.0', 'csv', 1, { options: {} }, { options: {} }),
    pair('json', 'json', 1.1, { operation: 'toJson', options: {} }, { operation: 'fromJson', options: {} }),
    pair(
      'json pretty',
      'json',
      1.1,
      { operation: 'toJson', options: { format: true } },
      { operation: 'text', options: {} },
    ),
    pair(
      'json each',
      'json',
      1.1,
      { operation: 'toJson', mode: 'each', options: {} },
      { operation: 'fromJson', options: {} },
    ),
    pair('html', 'html', 1.1, { operation: 'html', options: {} }, { operation: 'html', options: {} }),
    pair(
      'html text',
      'html',
      1.1,
      { operation: 'html', options: { headerRow: true } },
      { operation: 'text', options: {} },
    ),
    pair(
      'text',
      'text',
      1.1,
      { operation: 'toText', sourceProperty: 'name', options: {} },
      { operation: 'text', options: {} },
    ),
    pair(
      'text 1.0',
      'text',
      1,
      { operation: 'toText', sourceProperty: 'name', options: { fileName: 'n.txt' } },
      { operation: 'text', destinationKey: 'got', options: {} },
    ),
  ],
  { rows },
);
fileCase(
  'files-base64',
  [
    pair(
      'binary',
      'b',
      1.1,
      { operation: 'toBinary', sourceProperty: 'b64', options: {} },
      { operation: 'text', options: {} },
    ),
    pair(
      'binary named',
      'b',
      1.1,
      { operation: 'toBinary', sourceProperty: 'b64', options: { fileName: 'x.txt', mimeType: 'text/plain' } },
      { operation: 'binaryToPropery', options: {} },
    ),
    pair(
      'binary moved',
      'b',
      1.1,
      { operation: 'toBinary', sourceProperty: 'b64', binaryPropertyName: 'file', options: {} },
      { operation: 'text', binaryPropertyName: 'file', options: {} },
    ),
    pair(
      'to base64',
      'b',
      1.1,
      { operation: 'toBinary', sourceProperty: 'b64', options: {} },
      { operation: 'binaryToPropery', destinationKey: 'again', options: { encoding: 'utf8' } },
    ),
  ],
  { strings: [{ b64: 'SGVsbG8sIHfDtnJsZCE=' }, { b64: 'AAEC' }] },
);
fileCase(
  'files-spreadsheets',
  [
    pair('xlsx', 'x', 1.1, { operation: 'xlsx', options: {} }, { operation: 'xlsx', options: {} }),
    pair(
      'xlsx raw',
      'x',
      1.1,
      { operation: 'xlsx', options: { sheetName: 'S' } },
      { operation: 'xlsx', options: { rawData: true, sheetName: 'S' } },
    ),
    pair('ods', 'o', 1.1, { operation: 'ods', options: {} }, { operation: 'ods', options: {} }),
    pair('rtf', 'r', 1.1, { operation: 'rtf', options: {} }, { operation: 'rtf', options: {} }),
  ],
  {
    rows: [
      { id: 1, name: 'Ann', n: 2.5, ok: true, d: '2024-01-02' },
      { id: 2, name: 'Bob', n: 0, ok: false },
    ],
  },
);
// xls (the binary Excel 97 format): the same two rows written and read back (more in files-xls-read).
fileCase('files-xls', [pair('xls', 'l', 1.1, { operation: 'xls', options: {} }, { operation: 'xls', options: {} })], {
  rows: [
    { id: 1, name: 'Ann', n: 2.5, ok: true, d: '2024-01-02' },
    { id: 2, name: 'Bob', n: 0, ok: false },
  ],
});
fileCase(
  'files-ical',
  [
    pair(
      'ics',
      'i',
      1,
      {
        operation: 'iCal',
        title: '={{ $json.t }}',
        start: '2024-01-03T00:00:00',
        end: '2024-01-04T00:00:00',
        allDay: true,
        additionalFields: { description: 'about it' },
      },
      { operation: 'fromIcs', options: {} },
    ),
    pair(
      'ics timed',
      'i',
      1,
      {
        operation: 'iCal',
        title: 'Meet',
        start: '2024-05-01T10:30:00',
        end: '2024-05-01T11:00:00',
        additionalFields: { location: 'Room 1', url: 'https://example.com' },
      },
      { operation: 'fromIcs', options: {} },
    ),
  ],
  { one: [{ t: 'Party' }] },
);

// ---- Later findings of the conformance run -------------------------------------------------------------
add('html-body-and-legacy-trim', {
  nodes: [
    N('Body HTML', 'html', 1.2, {
      operation: 'extractHtmlContent',
      dataPropertyName: 'html',
      extractionValues: fv([
        { key: 'body', cssSelector: 'body', returnValue: 'html' },
        { key: 'div', cssSelector: 'div', returnValue: 'html' },
      ]),
      options: {},
    }),
    N('Legacy', 'htmlExtract', 1, {
      dataPropertyName: 'html',
      extractionValues: fv([
        { key: 'h', cssSelector: 'h1' },
        { key: 'b', cssSelector: 'b', returnValue: 'html' },
      ]),
      options: {},
    }),
    N('Legacy untrimmed', 'htmlExtract', 1, {
      dataPropertyName: 'html',
      extractionValues: fv([{ key: 'h', cssSelector: 'h1' }]),
      options: { trimValues: false },
    }),
  ],
  bodies: {
    page: [
      {
        html: '<html>\n<body>\n\t<h1>  Spaced  </h1>\n<div>a<br/>b<img src="x.png" /><input value="v"/><b> x </b></div>\n</body>\n</html>\n',
      },
    ],
  },
});
add('item-lists-2-field-errors', {
  nodes: [
    N('Split null', 'itemLists', 2, { fieldToSplitOut: 'nul', options: {} }, { continueOnFail: true }),
    N('Split text', 'itemLists', 2, { fieldToSplitOut: 'text', options: {} }, { continueOnFail: true }),
    N(
      'Aggregate missing',
      'itemLists',
      2,
      {
        operation: 'aggregateItems',
        fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'nope' }] },
        options: {},
      },
      { continueOnFail: true },
    ),
    N('Aggregate missing 2.1', 'itemLists', 2.1, {
      operation: 'aggregateItems',
      fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'nope' }] },
      options: {},
    }),
    N('Summarize missing 2.1', 'itemLists', 2.1, {
      operation: 'summarize',
      fieldsToSummarize: fv([{ field: 'nope' }, { aggregation: 'sum', field: 'n' }]),
      options: {},
    }),
    N('Summarize going on', 'summarize', 1, {
      fieldsToSummarize: fv([{ field: 'nope' }, { aggregation: 'append', field: 'n' }]),
      options: { continueIfFieldNotFound: true },
    }),
  ],
  bodies: {
    rows: [
      { nul: null, text: 'abc', n: 1 },
      { nul: null, text: 'de', n: 2 },
    ],
  },
});

// Convert to File's files as text, and their binary properties (read back through $binary; not
// which keys the entry has: n8n 2.8.4 keeps the bytes on disk under an `id`, Hamlet in `data`).
const meta = (name) =>
  N(name, 'set', 3.4, {
    assignments: asg([
      ['fileName', 'string', '={{ $binary.data.fileName }}'],
      ['mimeType', 'string', '={{ $binary.data.mimeType }}'],
      ['fileExtension', 'string', '={{ $binary.data.fileExtension }}'],
      ['fileSize', 'string', '={{ $binary.data.fileSize }}'],
      ['fileType', 'string', '={{ $binary.data.fileType }}'],
      ['bytes', 'number', '={{ $binary.data.bytes }}'],
    ]),
    options: {},
  });
const asText = (name) => N(name, 'extractFromFile', 1, { operation: 'text', options: {} });
const fileKinds = [
  ['csv', { options: {} }],
  ['csv semicolon', { options: { delimiter: ';', fileName: 'rows.csv' } }],
  ['html', { operation: 'html', options: {} }],
  ['json', { operation: 'toJson', options: {} }],
  ['json each', { operation: 'toJson', mode: 'each', options: { fileName: 'one.json' } }],
  ['text', { operation: 'toText', sourceProperty: 'name', options: {} }],
  ['binary', { operation: 'toBinary', sourceProperty: 'b64', options: {} }],
  [
    'binary typed',
    { operation: 'toBinary', sourceProperty: 'b64', options: { fileName: 'pic.png', mimeType: 'image/png' } },
  ],
  ['rtf', { operation: 'rtf', options: {} }],
];
add('files-raw-and-meta', {
  nodes: fileKinds.flatMap(([k, params]) => [
    N(`To ${k}`, 'convertToFile', 1.1, params),
    meta(`Meta ${k}`),
    asText(`Text ${k}`),
  ]),
  connections: Object.fromEntries([
    ['Input', [fileKinds.map(([k]) => [`To ${k}`])]],
    ...fileKinds.map(([k]) => [`To ${k}`, [[[`Meta ${k}`], [`Text ${k}`]]]]),
  ]),
  bodies: {
    rows: [
      { id: 1, name: 'Ann, "A"', n: 2.5, ok: true, none: null, tags: ['a'], o: { k: 1 }, b64: 'aGk=' },
      { id: 2, name: 'Bo\nb', n: -0.1, ok: false, e: '', b64: '' },
    ],
  },
});

// The legacy Start node: n8n 2.x no longer knows it, and refuses a manual run of a workflow that
// has it (as of any node type it does not know).
add('legacy-start', {
  manual: { type: 'start', typeVersion: 1 },
  nodes: [N('Set', 'set', 3.4, { assignments: asg([['x', 'number', '1']]), options: {} })],
  connections: { Manual: [[['Set']]] },
});
add('unknown-type-manual', {
  manual: true,
  nodes: [N('Odd', 'n8n-nodes-base.noSuchNode', 1, {})],
  connections: { Manual: [[['Odd']]] },
});

// Text extraction of bytes that are control characters.
add('files-control-bytes', {
  chain: true,
  nodes: [
    N('To file', 'convertToFile', 1.1, { operation: 'toBinary', sourceProperty: 'b64', options: {} }),
    N('Size', 'set', 3.4, {
      assignments: asg([['size', 'string', '={{ $binary.data.fileSize }}']]),
      includeOtherFields: true,
      options: {},
    }),
    N('Text', 'extractFromFile', 1, { operation: 'text', options: {} }),
  ],
  connections: { Input: [[['To file']]], 'To file': [[['Size'], ['Text']]] },
  bodies: { bytes: [{ b64: 'YQBi' }, { b64: 'YQFi' }, { b64: 'AQ==' }, { b64: 'AAEC' }, { b64: 'YQ1iDGM=' }] },
});

// ---- Issue #29: JWT, TOTP, Compression, Move Binary Data ---------------------------------------------
// Every file a node makes is read back by "Dump" (a Code node): its bytes as base64 (left out
// where n8n's bytes carry the clock: zip and gzip output) and its description.
const dumpCode = (withBytes) =>
  [
    'const out = [];',
    'const items = $input.all();',
    'for (let i = 0; i < items.length; i++) {',
    '  const files = {};',
    '  for (const [k, v] of Object.entries(items[i].binary ?? {})) {',
    '    const buf = await this.helpers.getBinaryDataBuffer(i, k);',
    // Without the bytes (an archive's own deflate), its size is left out too.
    `    files[k] = { ${withBytes ? "b64: buf.toString('base64'), length: buf.length, " : ''}fileName: v.fileName ?? null, mimeType: v.mimeType ?? null, fileExtension: v.fileExtension ?? null, ${withBytes ? 'fileSize: v.fileSize ?? null, ' : ''}fileType: v.fileType ?? null, directory: v.directory ?? null };`,
    '  }',
    '  out.push({ json: { json: items[i].json, files } });',
    '}',
    'return out;',
  ].join('\n');
const dump = (name, withBytes = true) => N(name, 'code', 2, { jsCode: dumpCode(withBytes) });

const JWT_SECRET = 'hamlet-secret';
const b64u = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
const hs = (payload, { alg = 'HS256', secret = JWT_SECRET, header = { alg, typ: 'JWT' } } = {}) => {
  const input = `${b64u(header)}.${b64u(payload)}`;
  const digest = `sha${alg.slice(2)}`;
  return `${input}.${createHmac(digest, secret).update(input).digest('base64url')}`;
};
const jwtCred = (id, name, data) => ({ ref: { jwtAuth: { id, name } }, file: { type: 'jwtAuth', name, data } });
const PASS = jwtCred('oracle-jwt-pass', 'oracle jwt pass', {
  keyType: 'passphrase',
  secret: JWT_SECRET,
  algorithm: 'HS256',
});
const RSA = jwtCred('oracle-jwt-rsa', 'oracle jwt rsa', {
  keyType: 'pemKey',
  privateKey: RSA_PRIVATE,
  publicKey: RSA_PUBLIC,
  algorithm: 'RS256',
});
const EC = jwtCred('oracle-jwt-ec', 'oracle jwt ec', {
  keyType: 'pemKey',
  privateKey: EC_PRIVATE,
  publicKey: EC_PUBLIC,
  algorithm: 'ES256',
});
const withCred = (cred, extra = {}) => ({ credentials: cred.ref, ...extra });
const jwtOps = (name, operation, options, cred = PASS, token = '={{ $json.t }}') =>
  N(name, 'jwt', 1, { operation, token, options }, withCred(cred, { continueOnFail: true }));
const signJson = (name, cred, options = {}) =>
  N(
    name,
    'jwt',
    1,
    {
      useJson: true,
      claimsJson: '={{ JSON.stringify({ sub: $json.label, iat: 1700000000, n: [1, "2"] }) }}',
      options,
    },
    withCred(cred),
  );
add('jwt', {
  credentials: [PASS.file, RSA.file, EC.file],
  nodes: [
    jwtOps('Decode', 'decode', {}),
    jwtOps('Decode complete', 'decode', { complete: true }),
    jwtOps('Verify', 'verify', {}),
    jwtOps('Verify lenient', 'verify', { ignoreExpiration: true, ignoreNotBefore: true, complete: true }),
    jwtOps('Verify tolerant', 'verify', { clockTolerance: 99999999999 }),
    jwtOps('Verify HS384', 'verify', { algorithm: 'HS384' }),
    signJson('Sign json', PASS),
    N(
      'Sign claims',
      'jwt',
      1,
      {
        claims: {
          issuer: 'hamlet',
          subject: '={{ $json.label }}',
          audience: 'x',
          expiresIn: 60,
          notBefore: 5,
          jwtid: 'j1',
        },
        options: { kid: 'k1', algorithm: 'HS512' },
      },
      withCred(PASS),
    ),
    N(
      'Decode signed',
      'jwt',
      1,
      { operation: 'decode', token: '={{ $json.token }}', options: { complete: true } },
      withCred(PASS),
    ),
    signJson('Sign RS256', RSA),
    jwtOps('Verify RS256', 'verify', { complete: true }, RSA, '={{ $json.token }}'),
    signJson('Sign PS256', RSA, { algorithm: 'PS256' }),
    jwtOps('Verify PS256', 'verify', { algorithm: 'PS256' }, RSA, '={{ $json.token }}'),
    signJson('Sign ES256', EC),
    jwtOps('Verify ES256', 'verify', {}, EC, '={{ $json.token }}'),
    N(
      'Verify RS as HS',
      'jwt',
      1,
      { operation: 'verify', token: '={{ $json.token }}', options: {} },
      withCred(PASS, { continueOnFail: true }),
    ),
  ],
  connections: {
    Input: [
      [
        ['Decode'],
        ['Decode complete'],
        ['Verify'],
        ['Verify lenient'],
        ['Verify tolerant'],
        ['Verify HS384'],
        ['Sign json'],
        ['Sign claims'],
        ['Sign RS256'],
        ['Sign PS256'],
        ['Sign ES256'],
      ],
    ],
    'Sign claims': [[['Decode signed']]],
    'Sign RS256': [[['Verify RS256'], ['Verify RS as HS']]],
    'Sign PS256': [[['Verify PS256']]],
    'Sign ES256': [[['Verify ES256']]],
  },
  // One token per run: n8n's node turns only a failure of the first item into an error item.
  bodies: Object.fromEntries(
    [
      ['valid', hs({ sub: 'ann', iat: 1700000000, u: 'ü' })],
      ['expired', hs({ sub: 'ann', iat: 1, exp: 2 })],
      ['not yet', hs({ sub: 'ann', iat: 1700000000, nbf: 9999999999 })],
      ['wrong secret', hs({ sub: 'ann', iat: 1700000000 }, { secret: 'other' })],
      ['hs384', hs({ sub: 'ann', iat: 1700000000 }, { alg: 'HS384' })],
      ['unsigned', `${b64u({ alg: 'none' })}.${b64u({ sub: 'x' })}.`],
      ['malformed', 'abc.def'],
      ['text payload', hs('just text', { header: { alg: 'HS256' } })],
      ['bad exp', hs({ sub: 'ann', exp: 'soon' })],
    ]
      .map(([label, t]) => [label, [{ label, t }]])
      .concat([
        [
          'two items',
          [
            { label: 'one', t: hs({ sub: 'one', iat: 1700000000 }) },
            { label: 'two', t: hs({ sub: 'two', iat: 1700000000, exp: 9999999999 }) },
          ],
        ],
      ]),
  ),
});

const totpCred = (id, name, data) => ({ ref: { totpApi: { id, name } }, file: { type: 'totpApi', name, data } });
const TOTP1 = totpCred('oracle-totp-1', 'oracle totp labelled', { secret: 'JBSWY3DPEHPK3PXP', label: 'Hamlet:ann' });
const TOTP2 = totpCred('oracle-totp-2', 'oracle totp spaced', { secret: 'jbsw y3dp ehpk 3pxp' });
const TOTP3 = totpCred('oracle-totp-3', 'oracle totp bad label', { secret: 'JBSWY3DPEHPK3PXP', label: 'nocolon' });
add('totp', {
  credentials: [TOTP1.file, TOTP2.file, TOTP3.file],
  // The code and the seconds left follow the clock: compared by their form only.
  volatileKeys: ['token', 'secondsRemaining'],
  volatileShapes: true,
  nodes: [
    N('TOTP', 'totp', 1, { options: {} }, withCred(TOTP1)),
    N('TOTP 8 digits', 'totp', 1, { options: { algorithm: 'SHA256', digits: 8, period: 60 } }, withCred(TOTP1)),
    N('TOTP spaced', 'totp', 1, { operation: 'generateSecret', options: { algorithm: 'SHA3-512' } }, withCred(TOTP2)),
    N('TOTP bad label', 'totp', 1, { options: {} }, withCred(TOTP3, { continueOnFail: true })),
  ],
  bodies: { two: [{ a: 1 }, { a: 2 }] },
});

// Fixed archives made by another tool (Python's zipfile and gzip): a folder entry, a deflated and
// a stored file, and macOS's __MACOSX copy; a gzip named notes.txt.
const GZ = 'H4sICAAAAAAC/25vdGVzLnR4dADzSM3JyddRSK/KLFA4vIcLAGEDE6gPAAAA';
const ZIP =
  'UEsDBBQAAAAAAAAAIVAAAAAAAAAAAAAAAAAFAAAAZG9jcy9QSwMEFAAAAAgAAAAhUI+R/3wLAAAAeAAAAAoAAABkb2NzL2EudHh0S8wpyEhUSKQ7CQBQSwMEFAAAAAAAAAAhUH/WuxEHAAAABwAAAAYAAABiLmpzb257ImIiOjF9UEsDBBQAAAAAAAAAIVCDFtyMAQAAAAEAAAARAAAAX19NQUNPU1gvLl9iLmpzb254UEsBAhQDFAAAAAAAAAAhUAAAAAAAAAAAAAAAAAUAAAAAAAAAAAAAAIABAAAAAGRvY3MvUEsBAhQDFAAAAAgAAAAhUI+R/3wLAAAAeAAAAAoAAAAAAAAAAAAAAIABIwAAAGRvY3MvYS50eHRQSwECFAMUAAAAAAAAACFQf9a7EQcAAAAHAAAABgAAAAAAAAAAAAAAgAFWAAAAYi5qc29uUEsBAhQDFAAAAAAAAAAhUIMW3IwBAAAAAQAAABEAAAAAAAAAAAAAAIABgQAAAF9fTUFDT1NYLy5fYi5qc29uUEsFBgAAAAAEAAQA3gAAALEAAAAAAA==';
const textFile = (name, property = 'data') =>
  N(name, 'convertToFile', 1.1, {
    operation: 'toText',
    sourceProperty: 'text',
    binaryPropertyName: property,
    options: { fileName: '={{ $json.name }}' },
  });
const archive = (name, b64, fileName, extra = {}) =>
  N(name, 'convertToFile', 1.1, { operation: 'toBinary', sourceProperty: b64, options: { fileName } }, extra);
const compress = (name, typeVersion, params) =>
  N(name, 'compression', typeVersion, { operation: 'compress', ...params });
const decompress = (name, typeVersion, params = {}) =>
  N(name, 'compression', typeVersion, { operation: 'decompress', ...params }, { continueOnFail: true });
add('compression', {
  nodes: [
    textFile('Text'),
    // A second file beside the first (Convert to File would replace it): made in a Code node.
    N('Second text', 'code', 2, {
      jsCode: [
        'const out = [];',
        'for (const item of $input.all()) {',
        "  const more = await this.helpers.prepareBinaryData(Buffer.from(JSON.stringify({ b: 1 })), 'b.json');",
        '  out.push({ json: item.json, binary: { ...item.binary, more } });',
        '}',
        'return out;',
      ].join('\n'),
    }),
    compress('Gzip', 1.1, { outputFormat: 'gzip', binaryPropertyName: 'data' }),
    dump('Dump gzip', false),
    decompress('Gunzip', 1.1),
    dump('Dump gunzip'),
    compress('Gzip named', 1.1, {
      outputFormat: 'gzip',
      binaryPropertyName: 'data, more',
      fileName: 'packed.gz',
      binaryPropertyOutput: 'gz',
    }),
    decompress('Gunzip named', 1.1, { binaryPropertyName: 'gz, gz1', outputPrefix: 'out' }),
    dump('Dump gunzip named'),
    compress('Gzip v1', 1, { outputFormat: 'gzip', binaryPropertyName: 'data' }),
    dump('Dump gzip v1', false),
    decompress('Gunzip v1', 1, { binaryPropertyName: 'data0' }),
    dump('Dump gunzip v1'),
    compress('Zip', 1.1, { outputFormat: 'zip', binaryPropertyName: 'data, more', fileName: 'bundle.zip' }),
    dump('Dump zip', false),
    decompress('Unzip', 1.1),
    dump('Dump unzip'),
    archive('Fixed gzip', 'gz', 'notes.txt.gz'),
    decompress('Gunzip fixed', 1.1),
    dump('Dump gunzip fixed'),
    archive('Fixed zip', 'zip', 'bundle.zip'),
    decompress('Unzip fixed', 1.1),
    dump('Dump unzip fixed'),
    decompress('Decompress missing', 1.1, { binaryPropertyName: 'nope' }),
    archive('No extension', 'gz', 'noext'),
    decompress('Decompress no extension', 1.1),
  ],
  connections: {
    Input: [[['Text'], ['Fixed gzip'], ['Fixed zip'], ['Decompress missing'], ['No extension']]],
    Text: [[['Second text']]],
    'Second text': [[['Gzip'], ['Gzip named'], ['Gzip v1'], ['Zip']]],
    Gzip: [[['Dump gzip'], ['Gunzip']]],
    Gunzip: [[['Dump gunzip']]],
    'Gzip named': [[['Gunzip named']]],
    'Gunzip named': [[['Dump gunzip named']]],
    'Gzip v1': [[['Dump gzip v1'], ['Gunzip v1']]],
    'Gunzip v1': [[['Dump gunzip v1']]],
    Zip: [[['Dump zip'], ['Unzip']]],
    Unzip: [[['Dump unzip']]],
    'Fixed gzip': [[['Gunzip fixed']]],
    'Gunzip fixed': [[['Dump gunzip fixed']]],
    'Fixed zip': [[['Unzip fixed']]],
    'Unzip fixed': [[['Dump unzip fixed']]],
    'No extension': [[['Decompress no extension']]],
  },
  bodies: {
    files: [
      { name: 'a.txt', text: 'Hello, wörld! '.repeat(10), gz: GZ, zip: ZIP },
      { name: 'report.final.csv', text: 'x,y\n1,2\n', gz: GZ, zip: ZIP },
    ],
  },
});

add('move-binary-data', {
  nodes: [
    N('To binary all', 'moveBinaryData', 1.1, { mode: 'jsonToBinary', options: {} }),
    dump('Dump all'),
    N('Back all', 'moveBinaryData', 1.1, { mode: 'binaryToJson', options: {} }),
    N('Back text', 'moveBinaryData', 1.1, {
      mode: 'binaryToJson',
      setAllData: false,
      destinationKey: 'got.text',
      options: { keepSource: true },
    }),
    dump('Dump kept'),
    N('Back parsed', 'moveBinaryData', 1, {
      mode: 'binaryToJson',
      setAllData: false,
      destinationKey: 'parsed',
      options: { jsonParse: true },
    }),
    N('Back base64', 'moveBinaryData', 1.1, {
      mode: 'binaryToJson',
      setAllData: false,
      options: { keepAsBase64: true },
    }),
    N('To binary key v1', 'moveBinaryData', 1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 's',
      destinationKey: 'text',
      options: { useRawData: true },
    }),
    dump('Dump key v1'),
    N('To binary named', 'moveBinaryData', 1.1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 's',
      options: { useRawData: true, fileName: 's.txt', mimeType: 'text/plain' },
    }),
    dump('Dump named'),
    N('To binary raw 1.1', 'moveBinaryData', 1.1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 's',
      options: { useRawData: true },
    }),
    dump('Dump raw 1.1'),
    N('To binary base64', 'moveBinaryData', 1.1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 'b64',
      destinationKey: 'pic',
      options: { dataIsBase64: true, keepSource: true, fileName: 'p.png' },
    }),
    dump('Dump base64'),
    N('To binary utf16', 'moveBinaryData', 1.1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 'o',
      options: { encoding: 'utf16le', addBOM: true },
    }),
    dump('Dump utf16'),
    N('Back utf16', 'moveBinaryData', 1.1, {
      mode: 'binaryToJson',
      setAllData: false,
      destinationKey: 'o',
      options: { encoding: 'utf16le', jsonParse: true },
    }),
    N('Back missing', 'moveBinaryData', 1.1, { mode: 'binaryToJson', options: {} }),
    N('To binary missing key', 'moveBinaryData', 1.1, {
      mode: 'jsonToBinary',
      convertAllData: false,
      sourceKey: 'nope',
      options: {},
    }),
  ],
  connections: {
    Input: [
      [
        ['To binary all'],
        ['To binary key v1'],
        ['To binary named'],
        ['To binary raw 1.1'],
        ['To binary base64'],
        ['To binary utf16'],
        ['Back missing'],
        ['To binary missing key'],
      ],
    ],
    'To binary all': [[['Dump all'], ['Back all'], ['Back text'], ['Back parsed'], ['Back base64']]],
    'Back text': [[['Dump kept']]],
    'To binary key v1': [[['Dump key v1']]],
    'To binary named': [[['Dump named']]],
    'To binary raw 1.1': [[['Dump raw 1.1']]],
    'To binary base64': [[['Dump base64']]],
    'To binary utf16': [[['Dump utf16'], ['Back utf16']]],
  },
  bodies: {
    rows: [
      { a: 1, s: 'héllo', o: { x: [1, 2], y: 'ü' }, b64: 'iVBORw0KGgo=' },
      { a: 2, s: '{"k":true}', o: { x: [] }, b64: 'aGk=', 'dotted.key': 1 },
    ],
  },
});

// ---- xlsx and ods (Convert to File, Extract from File, Spreadsheet File) --------------------------
// Written here and read back (n8n's files come from SheetJS, whose bytes are its own: compared by
// what reads back), and files made by hand as other tools write them: shared and rich strings,
// inline strings, a formula's cached value, an error cell, a skipped row, a second sheet whose
// name needs escaping; ods with spaces (text:s), two paragraphs, a percentage, repeated rows and
// columns (a million empty rows at the end, as office suites write).
const FIXED_XLSX =
  'UEsDBBQAAAAIAAAAIVD2irUECgEAACwDAAATAAAAW0NvbnRlbnRfVHlwZXNdLnhtbMWSy07DMBBFf8XytoqddoEQStIFjyUgUT7A2JPEil/yuCX8PU5aEEIFVKkSq5E9d+65sqdaj9aQHUTU3tV0yUpKwEmvtOtq+ry5Ky7puqk2bwGQZKnDmvYphSvOUfZgBTIfwOVO66MVKR9jx4OQg+iAr8rygkvvErhUpMmDNtUNtGJrErkd8/UeG8EgJdd74cSqqQjBaClS7vOdU98oxYHA8uSswV4HXGQB5UcJU+dnwGHuIb9D1ArIo4jpXtis4qPhrz4OL94P7HeTIyl922oJysutzSMMQwShsAdI1rC5Miu0W/zNn8XI57I8c5BP/xNzrP4pB/YignpKMe8onv1Tvnh/5ODz+jfvUEsDBBQAAAAIAAAAIVAcSfe+pAAAABYBAAALAAAAX3JlbHMvLnJlbHONz8EOwiAMBuBXIb07pgdjzNguxmRXMx8AWcfIBiWAOt9ejs548Nj0/7+mVbPYmT0wRENOwLYogaFT1BunBVy78+YATV1dcJYpJ+JofGS54qKAMSV/5DyqEa2MBXl0eTNQsDLlMWjupZqkRr4ryz0PnwasTdb2AkLbb4F1L4//2DQMRuGJ1N2iSz9OfCWyLIPGJGCZ+ZPCdCOaiowCryu+erB+A1BLAwQUAAAACAAAACFQ7fKzpMUAAABCAQAADwAAAHhsL3dvcmtib29rLnhtbI1QzU7DMAx+lcgHbixdDwiVtrtMk3ZmPEBI3DVaHUd2gD0+YWPSuHHy3/dju9+caTGfKBo5DbBeNWAweQ4xHQd4O+wen2Ez9l8sp3fmk6nopAPMpeTOWvUzktMVZ0x1MrGQK7WUo9Us6ILOiIUW2zbNkyUXE1wVOvmPBk9T9Lhl/0GYylVEcHGl7qpzzApjf3HQ32iSIxxgF0ULmEtrH+pVYKSLNZF9WIP9C35FzymYB0f5xRAL3hHbO2L7Q7Q3O3v7yPgNUEsDBBQAAAAIAAAAIVC7eUO9ygAAADUCAAAaAAAAeGwvX3JlbHMvd29ya2Jvb2sueG1sLnJlbHO1kc1qwzAMgF/F6L4oyWCMUreXMui16x7AOEocmthGcrf27WsK3ZpSyg7bSejv0weaLw/joD6JpQ9eQ1WUoMjb0PS+0/CxfXt6heVivqHBpDwhro+i8ooXDS6lOEMU62g0UoRIPnfawKNJOeUOo7E70xHWZfmCfM2AKVOtGw28bipQ22Ok37BD2/aWVsHuR/Lpzgn8CrwTR5Qy1HBHScN3SfAcqiJTAe/L1P8sg4cBb4XqR0LPfykkzjA174nzp+VHalK+yODk/4sTUEsDBBQAAAAIAAAAIVC9i9mF6wAAAIcBAAAUAAAAeGwvc2hhcmVkU3RyaW5ncy54bWyNkDFOAzEQRXtOYU2RjngTCYSWXacAUaeAhs44s7uW7LHxeCPuxDG4GHYWiKCiGem/b33/mW735p04YmIbqIfNugGBZMLB0tjD0+PD5Q3sVMecRXlI3MOUc2ylZDOh17wOEak4Q0he5yLTKDkm1AeeELN3cts019JrS7AktOk/GWEYrMH7YGaPlJeQhE7nUpMnGxmECTPlHq5AzGRfZ7z71qWuVV1WpD12MqtOVv3FfoNU2eD0QtMJpH0ZL7Lq/ckff9xzUN2l5agN9lDWZUxHBCWew8e7WGkfb0s98fdzZwk3F3Vuz5Yst1WfUEsDBBQAAAAIAAAAIVCdQcX1PAEAAOQCAAAYAAAAeGwvd29ya3NoZWV0cy9zaGVldDEueG1sjZJdT4MwFIb/CtZLs5UyMGYpXTaZidfq7iscRiO0pK3bfr6FTgRijHe078d52kI3l6YOTqCNUDJFZBmiAGSuCiGPKXp7fVo8oA2jZ6U/TAVgA2eXJkWVte0aY5NX0HCzVC1Ip5RKN9y6pT5i02rgRR9qahyF4T1uuJDIN6z1fzpUWYocMpV/NiCtL9FQc+tgTSVagxgthNM6+kBDmaItWe8ThBntJ2fccka1OgduHnHuvPvYEhTYFHXpEwspPjGK86u2G2tkqj3+kduPtWjQsJs9AEQDQDQyr2YAka9YJrPh14zVvX6ZqplXhayFhJfeIwyjlvkdiq0zdzs/wD7xPjvoBDgegOMRcDwD7lwlI3eupJye3oP7LPTZ2+z5gMOb2d3FI5Twd5TkG2WX9LYF2S9WMysevTkefln2BVBLAwQUAAAACAAAACFQL0jIQsoAAABJAQAAGAAAAHhsL3dvcmtzaGVldHMvc2hlZXQyLnhtbI1Q0WrDMAz8FeP3VVkG2yiOC6X0B7p9gHGVxjS2g6Sl+/wpLYQ+7kFwOt2dhNzuN49mRuJUS2dfN401WGI9p3Lp7PfX8eXT7ry7VbrygChG5YU7O4hMWwCOA+bAmzph0UlfKQfRli7AE2E43015hLZp3iGHVOwjYUv/yah9nyIeavzJWOQRQjgG0WN5SBNb7+4bDkGCd1RvRnNbZeMC9q010tlUxlTwJKR8Yu/EXx2Id7A0ELXUuLrfVveCZv/hYH6WwdNCWP/i/wBQSwECFAMUAAAACAAAACFQ9oq1BAoBAAAsAwAAEwAAAAAAAAAAAAAAgAEAAAAAW0NvbnRlbnRfVHlwZXNdLnhtbFBLAQIUAxQAAAAIAAAAIVAcSfe+pAAAABYBAAALAAAAAAAAAAAAAACAATsBAABfcmVscy8ucmVsc1BLAQIUAxQAAAAIAAAAIVDt8rOkxQAAAEIBAAAPAAAAAAAAAAAAAACAAQgCAAB4bC93b3JrYm9vay54bWxQSwECFAMUAAAACAAAACFQu3lDvcoAAAA1AgAAGgAAAAAAAAAAAAAAgAH6AgAAeGwvX3JlbHMvd29ya2Jvb2sueG1sLnJlbHNQSwECFAMUAAAACAAAACFQvYvZhesAAACHAQAAFAAAAAAAAAAAAAAAgAH8AwAAeGwvc2hhcmVkU3RyaW5ncy54bWxQSwECFAMUAAAACAAAACFQnUHF9TwBAADkAgAAGAAAAAAAAAAAAAAAgAEZBQAAeGwvd29ya3NoZWV0cy9zaGVldDEueG1sUEsBAhQDFAAAAAgAAAAhUC9IyELKAAAASQEAABgAAAAAAAAAAAAAAIABiwYAAHhsL3dvcmtzaGVldHMvc2hlZXQyLnhtbFBLBQYAAAAABwAHAM0BAACLBwAAAAA=';
const FIXED_ODS =
  'UEsDBBQAAAAAAAAAIVCFbDmKLgAAAC4AAAAIAAAAbWltZXR5cGVhcHBsaWNhdGlvbi92bmQub2FzaXMub3BlbmRvY3VtZW50LnNwcmVhZHNoZWV0UEsDBBQAAAAIAAAAIVA4Hi6ahQEAAKEGAAALAAAAY29udGVudC54bWytVduOgjAQ/RXSZB8RRN2YBvBld1832egHFBiVWFrSll39+20BEYh3fKHtdGbOmdNp8Rf7jFq/IGTKWYDGIxdZwGKepGwToNXyy56jRejz9TqNASc8LjJgyo45U3q0dDCTuNoNUCEY5kSmEjOSgcQqxjwHdozCbW9cQlUWRSJ6d3jp3ImGvbo7WPtWsTWLVuUeauqMeHJoFjIXQBK5BVChX6GXX6uaG7gAfRBFUGdba0SLjB29iiwCUdukLSAHoiAJ0AQ53TDB/3p5gNKGLqEF2OqQa0iphD4kA2qKykNDxHfqhZ70UjyZ9OUZ+e5qSueqFk+LQ6qJtMohDpCndY9OTOpRgu7sZHDNa8qJQp0dc9INzGQwQsQ5BcIajHpt11hKFHCCW/6sPoeJ3u1ibWi3sNdvfMP5RtuP+21/qdAcRKzvL9lAX0935M1ONXqzt8dEvUXw3XVdQ3KYNmN3OjeJniDgetPz+G3L5RfpW21BoBddn/2D7dOl6Jx7SZ3OW+tc+MOE/1BLAwQUAAAACAAAACFQta2A+bYAAABwAQAAFQAAAE1FVEEtSU5GL21hbmlmZXN0LnhtbI2Q0QrCMAxFf2Xkfav6JGXVN79AP6C0mRbatKzZ2P7eKjgnIviWkNx7btIep+CrEfvsIinYNhuokEy0jq4KLudTvYfjoQ2aXIeZ5auoiozy0ioYepJRZ5cl6YBZspExIdlohoDE8nNfPkFLt+LvYEXrnMe6qPv5vdsN3tdJ802BWFkEtE7XPCdUoFPyzmgulmIk2zxzNes4TU49aptviAzif6KJxA95ueYHm3Fi8RgXV/H1tsMdUEsBAhQDFAAAAAAAAAAhUIVsOYouAAAALgAAAAgAAAAAAAAAAAAAAIABAAAAAG1pbWV0eXBlUEsBAhQDFAAAAAgAAAAhUDgeLpqFAQAAoQYAAAsAAAAAAAAAAAAAAIABVAAAAGNvbnRlbnQueG1sUEsBAhQDFAAAAAgAAAAhULWtgPm2AAAAcAEAABUAAAAAAAAAAAAAAIABAgIAAE1FVEEtSU5GL21hbmlmZXN0LnhtbFBLBQYAAAAAAwADALIAAADrAgAAAAA=';
const sheetRowsIn = [
  {
    id: 1,
    name: 'Ann "A" <b>&',
    n: -2.5,
    ok: true,
    none: null,
    tags: ['a', 'b'],
    o: { k: 1 },
    e: '',
    big: 12345678901234,
  },
  { id: 2, name: 'Zoë  two  spaces\nline', n: 0, ok: false, extra: 'only here', id_1: 'dup?' },
  { id: 3, small: 1e-7 },
];
const meta2 = (name, property = 'data') =>
  N(name, 'set', 3.4, {
    assignments: asg([
      ['fileName', 'string', `={{ $binary.${property}.fileName }}`],
      ['mimeType', 'string', `={{ $binary.${property}.mimeType }}`],
      ['fileExtension', 'string', `={{ $binary.${property}.fileExtension }}`],
      ['fileType', 'string', `={{ $binary.${property}.fileType }}`],
    ]),
    options: {},
  });
const sheetChain = (label, toNode, fromNodes, property = 'data') => ({
  nodes: [toNode, meta2(`Meta ${label}`, property), ...fromNodes],
  links: [[toNode.name, [`Meta ${label}`, ...fromNodes.map((n) => n.name)]]],
});
const chains = [
  sheetChain('xlsx', N('To xlsx', 'convertToFile', 1.1, { operation: 'xlsx', options: {} }), [
    N('From xlsx', 'extractFromFile', 1, { operation: 'xlsx', options: {} }),
    N('From xlsx no header', 'extractFromFile', 1, { operation: 'xlsx', options: { headerRow: false } }),
    N('From xlsx empty cells', 'extractFromFile', 1, { operation: 'xlsx', options: { includeEmptyCells: true } }),
    N('From xlsx range', 'extractFromFile', 1, { operation: 'xlsx', options: { range: 1 } }),
    N(
      'From xlsx wrong sheet',
      'extractFromFile',
      1,
      { operation: 'xlsx', options: { sheetName: 'Nope' } },
      { continueOnFail: true },
    ),
    N('From xlsx as ods', 'extractFromFile', 1, { operation: 'ods', options: {} }, { continueOnFail: true }),
  ]),
  sheetChain(
    'xlsx options',
    N('To xlsx options', 'convertToFile', 1.1, {
      operation: 'xlsx',
      binaryPropertyName: 'sheet',
      options: { sheetName: 'Rows & more', compression: true, headerRow: false, fileName: 'out.xlsx' },
    }),
    [
      N('From xlsx options', 'extractFromFile', 1, {
        operation: 'xlsx',
        binaryPropertyName: 'sheet',
        options: { sheetName: 'Rows & more', headerRow: false },
      }),
    ],
    'sheet',
  ),
  sheetChain('ods', N('To ods', 'convertToFile', 1.1, { operation: 'ods', options: { compression: true } }), [
    N('From ods', 'extractFromFile', 1, { operation: 'ods', options: {} }),
    N('From ods no header', 'extractFromFile', 1, { operation: 'ods', options: { headerRow: false } }),
  ]),
  sheetChain(
    'ods named',
    N('To ods named', 'convertToFile', 1.1, { operation: 'ods', options: { sheetName: 'S', fileName: 'x' } }),
    [
      N('From ods named', 'extractFromFile', 1, {
        operation: 'ods',
        options: { sheetName: 'S', includeEmptyCells: true },
      }),
    ],
  ),
  sheetChain('fixed xlsx', archive('Fixed xlsx', 'xlsx', 'made.xlsx', { executeOnce: true }), [
    N('Read fixed xlsx', 'extractFromFile', 1, { operation: 'xlsx', options: {} }),
    N('Read fixed xlsx rows', 'extractFromFile', 1, { operation: 'xlsx', options: { headerRow: false } }),
    N('Read fixed xlsx empty', 'extractFromFile', 1, { operation: 'xlsx', options: { includeEmptyCells: true } }),
    N('Read fixed xlsx second', 'extractFromFile', 1, { operation: 'xlsx', options: { sheetName: 'Second & more' } }),
  ]),
  sheetChain('fixed ods', archive('Fixed ods', 'ods', 'made.ods', { executeOnce: true }), [
    N('Read fixed ods', 'extractFromFile', 1, { operation: 'ods', options: {} }),
    N('Read fixed ods rows', 'extractFromFile', 1, { operation: 'ods', options: { headerRow: false } }),
    N('Read fixed ods other', 'extractFromFile', 1, { operation: 'ods', options: { sheetName: 'Other' } }),
  ]),
];
add('files-xlsx-ods', {
  nodes: chains.flatMap((c) => c.nodes),
  connections: {
    Input: [chains.map((c) => [c.nodes[0].name])],
    ...Object.fromEntries(chains.flatMap((c) => c.links.map(([from, to]) => [from, [to.map((t) => [t])]]))),
  },
  bodies: { rows: sheetRowsIn.map((r, i) => (i === 0 ? { ...r, xlsx: FIXED_XLSX, ods: FIXED_ODS } : r)) },
});

// The Spreadsheet File node (v2 and v1): the same files under its own names ("spreadsheet.xlsx").
const sheetNode = (name, typeVersion, parameters, extra) => N(name, 'spreadsheetFile', typeVersion, parameters, extra);
add('spreadsheet-file', {
  nodes: [
    sheetNode('Write xlsx', 2, { operation: 'toFile', fileFormat: 'xlsx', options: {} }),
    meta2('Meta xlsx'),
    sheetNode('Read xlsx', 2, { operation: 'fromFile', fileFormat: 'xlsx', options: {} }),
    sheetNode('Read auto', 2, { operation: 'fromFile', options: {} }),
    sheetNode('Write ods', 2, {
      operation: 'toFile',
      fileFormat: 'ods',
      binaryPropertyName: 'f',
      options: { sheetName: 'Mine', headerRow: false },
    }),
    meta2('Meta ods', 'f'),
    sheetNode('Read ods', 2, {
      operation: 'fromFile',
      fileFormat: 'ods',
      binaryPropertyName: 'f',
      options: { headerRow: false },
    }),
    sheetNode('Write csv', 2, { operation: 'toFile', fileFormat: 'csv', options: { fileName: 'rows.csv' } }),
    meta2('Meta csv'),
    sheetNode('Read csv', 2, { operation: 'fromFile', options: {} }),
    sheetNode('Write v1', 1, { operation: 'toFile', fileFormat: 'xlsx', options: {} }),
    meta2('Meta v1'),
    sheetNode('Read v1', 1, { operation: 'fromFile', options: {} }),
  ],
  connections: {
    Input: [[['Write xlsx'], ['Write ods'], ['Write csv'], ['Write v1']]],
    'Write xlsx': [[['Meta xlsx'], ['Read xlsx'], ['Read auto']]],
    'Write ods': [[['Meta ods'], ['Read ods']]],
    'Write csv': [[['Meta csv'], ['Read csv']]],
    'Write v1': [[['Meta v1'], ['Read v1']]],
  },
  bodies: {
    rows: [
      { id: 1, name: 'Ann', n: 2.5, ok: true, o: { k: [1] } },
      { id: 2, name: 'Bob', n: 0, ok: false, none: null },
    ],
  },
});

// ---- xls (Excel 97, BIFF8 in a compound file) ------------------------------------------------------
// Written here and read back with the options the xlsx cases cover; a file SheetJS (n8n's reader and
// writer) wrote, two sheets, a blank row, a repeated header; a file made record by record as Excel
// writes (RK and MULRK numbers, LABEL, shared strings rich, phonetic and split over CONTINUE,
// formulas' cached number, text, boolean and empty text, error cells, a blank cell, a declared range
// wider than the cells, an empty second sheet). The first was written by SheetJS 0.18.5 from the
// oracle's n8n install (aoa_to_sheet, then write with bookType xls), the second record by record
// and put in a compound file with nodes/xls/cfb.ts's writer. A third, LibreOffice 7.4 wrote from a CSV
// (booleans, a formula's cached number, text, boolean and error, unicode, empty cells).
const FIXED_XLS_SHEETJS =
  '0M8R4KGxGuEAAAAAAAAAAAAAAAAAAAAAPgADAP7/CQAGAAAAAAAAAAAAAAABAAAAAgAAAAAAAAAAEAAAAQAAAAEAAAD+////AAAA' +
  'AAAAAAD/////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '///////////////////////////////////////////////////////////////////////////////////9/////v////7///8E' +
  'AAAABQAAAAYAAAD+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+////' +
  '/v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v//' +
  '//7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7/' +
  '///+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+' +
  '/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+////' +
  '/v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v//' +
  '//7////+/////v////7////+/////v////7////+/////v////7////+/////v////7///8CAAAAAwAAAAQAAAAFAAAABgAAAAcA' +
  'AAAIAAAACQAAAAoAAAALAAAADAAAAA0AAAAOAAAADwAAABAAAAARAAAAEgAAABMAAAAUAAAAFQAAABYAAAAXAAAAGAAAABkAAAAa' +
  'AAAAGwAAAP7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+////' +
  '/v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v//' +
  '//7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7/' +
  '///+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+' +
  '/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+/////v////7////+////' +
  '/v////7////+/////v////7////+/////v////7////+////UgAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQABQH//////////wEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAADAAAAAAcAAAAAAAABAFMAaAAzADMAdABKADUAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAEgACAf////8CAAAA/////wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAAAAAAAAAFcAbwByAGsA' +
  'YgBvAG8AawAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAASAAIB////////////////AAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAAAKAGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD///////////////8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA3MjYyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAACQgQAAAGBQBics0HCcABAAYHAADhAAIAsATBAAIAAADiAAAAXABwAAcAAFNoMzN0SlMAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAABCAAIAsARhAQIAAADAAQAAPQEEAAEAAgCcAAIAEQAZAAIAAAASAAIAAAATAAIAAACvAQIAAAC8AQIAAAA9' +
  'ABIAAAAAAGBywEQ4AAAAAAABAPQBQAACAAAAjQACAAAAIgACAAAADgACAAEAtwECAAAA2gACAAAAMQAaAPAAAAAAAJABAAAAAAAA' +
  'BQFBAHIAaQBhAGwAHgQ1ADgAGAABIgAKTkhTLwALTkhTIAAiAGgAaAAiAEJmIgBtAG0AIgAGUiIAcwBzACIA0nkgACIA4AAUAAAA' +
  'AAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0' +
  '/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAA' +
  'AAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAA' +
  'AAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAA' +
  'AAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAAAAAA4AAUAAAAAAD0/wAAAAAAAAAAAAAA' +
  'AAAA4AAUAAAAAAAAAAAAAAAAAAAAAAAAAAAAYAECAAAAhQAQAFUDAAAAAAQBRABhAHQAYQCFACIAawUAAAAADQFTAGUAYwBvAG4A' +
  'ZAAgACYAIABtAG8AcgBlAIwABAABAAEA/AAIAAAAAAAAAAAACgAAAAkIEAAABhAAYnLNBwnAAQAGBwAADQACAAEADAACAGQADwAC' +
  'AAEAEQACAAAAEAAIAPyp8dJNYlA/XwACAAEAKgACAAAAKwACAAAAggACAAEAgAAIAAAAAAAAAAAAgwACAAAAhAACAAAAAAIOAAAA' +
  'AAAFAAAAAAAFAAAABAINAAAAAAAQAAIAAWkAZAAEAhEAAAABABAABAABbgBhAG0AZQAEAhMAAAACABAABQABcwBjAG8AcgBlAAQC' +
  'DQAAAAMAEAACAAFvAGsABAINAAAABAAQAAIAAWkAZAADAg4AAQAAABAAAAAAAAAA8D8EAg8AAQABABAAAwABQQBuAG4AAwIOAAEA' +
  'AgAQAAAAAAAAAARABQIIAAEAAwAQAAEABAIPAAEABAAQAAMAAWQAdQBwAAMCDgADAAAAEAAAAAAAAAAIQAQCFQADAAEAEAAGAAFa' +
  'AG8A6wAgACJvV1sDAg4AAwACABAASK+8mvLXer4FAggAAwADABAAAAADAg4ABAAAABAAAAAAAAAAEEADAg4ABAACABAAAORfnOd0' +
  'pkIEAgsABAAEABAAAQABeAA+AhIAtgYAAAAAQAAAAAAAAAAAAAAAugELAAQAAUQAYQB0AGEAZwgTAGcIAAAAAAAAAAAAAAMAAQAA' +
  'AABoCCcAaAgAAAAAAAAAAAAAAwAAAAAAAAEABAAAAAAAAAAEAAAABAAEAAAACgAAAAkIEAAABhAAYnLNBwnAAQAGBwAADQACAAEA' +
  'DAACAGQADwACAAEAEQACAAAAEAAIAPyp8dJNYlA/XwACAAEAKgACAAAAKwACAAAAggACAAEAgAAIAAAAAAAAAAAAgwACAAAAhAAC' +
  'AAAAAAIOAAAAAAADAAAAAAACAAAABAILAAAAAQAQAAEAAWIABAINAAEAAAAQAAIAAWEAMQADAg4AAQABABAAAAAAAAAAAEAFAggA' +
  'AgAAABAAAQA+AhIAtgYAAAAAQAAAAAAAAAAAAAAAugEdAA0AAVMAZQBjAG8AbgBkACAAJgAgAG0AbwByAGUAZwgTAGcIAAAAAAAA' +
  'AAAAAAMAAQAAAABoCCcAaAgAAAAAAAAAAAAAAwAAAAAAAAEABAAAAAAAAAACAAAAAQAEAAAACgAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA==';
const FIXED_XLS_HAND =
  '0M8R4KGxGuEAAAAAAAAAAAAAAAAAAAAAPgADAP7/CQAGAAAAAAAAAAAAAAABAAAABAAAAAAAAAAAEAAAAwAAAAEAAAD+////AAAA' +
  'AAUAAAD/////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '//////////////////////////////////////////////////////////////////////////////////8JCBAAAAYFALsNzAcA' +
  'AAAABgAAAEIAAgCwBD0AEgAAAAAAADAAIDgAAAAAAAEAWAIxABUAyAAAAP9/kAEAAAAAAAAFAEFyaWFsMQAVAMgAAAD/f5ABAAAA' +
  'AAAABQBBcmlhbDEAFQDIAAAA/3+QAQAAAAAAAAUAQXJpYWwxABUAyAAAAP9/kAEAAAAAAAAFAEFyaWFs4AAUAAAAAAD1/yAAAPQA' +
  'AAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAA' +
  'AAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAA' +
  'AMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg' +
  '4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAU' +
  'AAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAABACAAAAAAAAAAAAAAAMAghQANAH8C' +
  'AAAAAAUARXhjZWyFAA0A8wMAAAAABQBFbXB0efwANgAGAAAABAAAAAQAAGhlYWQEAAgCAGJvbGQAAAAAAgAAAAMABAYAAABrYW4A' +
  'AAAAAAAGAABhYmM8AAcAAWQA6QATJwoAAAAJCBAAAAYQALsNzAcAAAAABgAAAAACDgAAAAAABgAAAAAABQAAAP0ACgAAAAAADwAA' +
  'AAAA/QAKAAAAAQAPAAEAAAAEAg4AAAACAA8ABQAAbGFiZWz9AAoAAAADAA8AAwAAAH4CCgABAAAADwBa////fgIKAAEAAQAPAPcB' +
  'AAADAg4AAQACAA8AmpmZmZmZuT8FAggAAQADAA8AAQAGABYAAgAAAA8AAAAAAAAAHEAAAAAAAAAAAAYAFgACAAEADwAAAAAAAAD/' +
  '/wAAAAAAAAAABwIGAAMAAGZ4cwYAFgACAAIADwABAAEAAAD//wAAAAAAAAAABgAWAAIAAwAPAAMAAAAAAP//AAAAAAAAAAAFAggA' +
  'AwAAAA8ABwEFAggAAwABAA8AAAEBAgYAAwACAA8AvQAYAAQAAAAPAAYAAAAPAMsAAAAPAA4AAAACAP0ACgAEAAMADwACAAAAPgIS' +
  'ALYGAAAAAEAAAAAAAAAAAAAAAAoAAAAJCBAAAAYQALsNzAcAAAAABgAAAAACDgAAAAAAAAAAAAAAAAAAAAoAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAAAAgAAAAMAAAAEAAAABQAAAAYAAAAHAAAACAAAAAkAAAAKAAAACwAAAAwAAAANAAAA' +
  'DgAAAA8AAAAQAAAA/v///wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAFIAbwBvAHQAIABFAG4AdAByAHkAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAW' +
  'AAUB//////////8BAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAEAEAAAAAAAAVwBvAHIAawBiAG8A' +
  'bwBrAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABIAAgH///////////////8AAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAHQQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP///////////////wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAA////////////////AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAQAA' +
  'AAIAAAD+/////v////7////9////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '//////////////////////////////////////////////////////////////////////////////8=';
const FIXED_XLS_LIBREOFFICE =
  '0M8R4KGxGuEAAAAAAAAAAAAAAAAAAAAAOwADAP7/CQAGAAAAAAAAAAAAAAABAAAACQAAAAAAAAAAEAAAAgAAAAEAAAD+////AAAA' +
  'AAAAAAD/////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '///////////////////////////////////////////////////////////////////////////////////9//////////7///8E' +
  'AAAABQAAAAYAAAAHAAAACAAAAP7///8KAAAA/v//////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '/////////////////////////////////////////////////////////////////1IAbwBvAHQAIABFAG4AdAByAHkAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAWAAUA////////////////AAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAA/v///wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAD///////////////8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD+////AAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP//' +
  '/////////////wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP7///8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA////////////////AAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/v///wAAAAAAAAAAAQAAAAIAAAADAAAABAAAAAUAAAAGAAAABwAAAAgAAAAJAAAACgAA' +
  'AAsAAAAMAAAADQAAAA4AAAAPAAAAEAAAABEAAAASAAAAEwAAABQAAAAVAAAAFgAAABcAAAAYAAAAGQAAABoAAAAbAAAAHAAAAB0A' +
  'AAAeAAAAHwAAACAAAAAhAAAAIgAAACMAAAAkAAAA/v///yYAAAD+/////v///ykAAAAqAAAA/v///ywAAAD+////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '////////////////////////////////////////////////////////////////////////////////////////////////////' +
  '//////////////////////////////8JCBAAAAYFALsNzAcAAAAABgAAAOEAAgCwBMEAAgAAAOIAAABcAHAABAAAQ2FsYyAgICAg' +
  'ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAg' +
  'ICAgICAgICAgICAgICAgICAgICAgICAgIEIAAgCwBGEBAgAAAMABAAA9AQIAAQCcAAIADgCvAQIAAAC8AQIAAAA9ABIAAAAAAABA' +
  'ACA4AAAAAAABAFgCQAACAAAAjQACAAAAIgACAAAADgACAAEAtwECAAAA2gACAAAAMQAmAMgAAAD/f5ABAAAAAgAACwFEAGUAagBh' +
  'AFYAdQAgAFMAYQBuAHMAMQAaAMgAAAD/f5ABAAAAAAAABQFBAHIAaQBhAGwAMQAaAMgAAAD/f5ABAAAAAAAABQFBAHIAaQBhAGwA' +
  'MQAaAMgAAAD/f5ABAAAAAAAABQFBAHIAaQBhAGwAHgQMAKQABwAAR2VuZXJhbB4EGgClABUAACJUUlVFIjsiVFJVRSI7IkZBTFNF' +
  'Ih4EDQCmAAgAADAuMDBFKzAw4AAUAAAApAD1/yAAAAAAAAAAAAAAAMAg4AAUAAEAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAEAAAD1' +
  '/yAAAPQAAAAAAAAAAMAg4AAUAAIAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAIAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAA' +
  'APQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQA' +
  'AAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAA' +
  'AAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAAAMAg4AAUAAAAAAD1/yAAAPQAAAAAAAAA' +
  'AMAg4AAUAAAApAABACAAAAAAAAAAAAAAAMAg4AAUAAEAKwD1/yAAAPAAAAAAAAAAAMAg4AAUAAEAKQD1/yAAAPAAAAAAAAAAAMAg' +
  '4AAUAAEALAD1/yAAAPAAAAAAAAAAAMAg4AAUAAEAKgD1/yAAAPAAAAAAAAAAAMAg4AAUAAEACQD1/yAAAPAAAAAAAAAAAMAg4AAU' +
  'AAAApQABACAAAAQAAAAAAAAAAMAg4AAUAAAApgABACAAAAQAAAAAAAAAAMAgkwIEAACAAP+TAgQAEIAD/5MCBAARgAb/kwIEABKA' +
  'BP+TAgQAE4AH/5MCBAAUgAX/YAECAAAAhQALACwFAAAAAAMAbG8zjAAEAAEAAQDBAQgAwQEAAFSNAQDrAFoADwAA8FIAAAAAAAbw' +
  'GAAAAAAEAAACAAAAAQAAAAEAAAABAAAAAQAAADMAC/ASAAAAvwAIAAgAgQEJAAAIwAFAAAAIQAAe8RAAAAANAAAIDAAACBcAAAj3' +
  'AAAQ/ABhAAoAAAAKAAAABAAAbmFtZQEAAG4CAABvawcAAGZvcm11bGEEAABub3RlAwAAQW5uBQAAcGxhaW4IAAFaAG8A6wAgABMn' +
  'IAAib1dbDQAAcXVvdGVkLCBjb21tYQQAAGxhc3T/AAoACgCoBAAADAAAAGMIFQBjCAAAAAAAAAAAAAAVAAAAAAAAAAIKAAAACQgQ' +
  'AAAGEAC7DcwHAAAAAAYAAAAMAAIAZAAPAAIAAQARAAIAAAAQAAgA/Knx0k1iUD9fAAIAAQCAAAgAAAAAAAAAAAAlAgQAAAAAAYEA' +
  'AgDBBCoAAgAAACsAAgAAAIIAAgABABQAHgAbAAAmQyYiRGVqYVZ1IFNlcmlmLEJvb2siJjEyJkEVACMAIAAAJkMmIkRlamFWdSBT' +
  'ZXJpZixCb29rIiYxMlBhZ2UgJlCDAAIAAACEAAIAAAAmAAgAMzMzMzMz6T8nAAgAMzMzMzMz6T8oAAgAgy3Ygi3Y8D8pAAgAgy3Y' +
  'gi3Y8D+hACIACQBkAAEAAQABAIIALAEsATMzMzMzM+k/MzMzMzMz6T8BAFUAAgAIAH0ADAAAAAAArggPAAAAAAB9AAwAAQABAOwI' +
  'DwAAAAAAfQAMAAIAAgABBg8AAAAAAH0ADAADAAMAlgcPAAAAAAB9AAwABAAEAMoNDwAAAAAAfQAMAAUAAAEVCg8AAAAAAAACDgAA' +
  'AAAABQAAAAAABQAAAAgCEAAAAAAABQAAAQAAAAAAAQ8ACAIQAAEAAAAFAAABAAAAAAABDwAIAhAAAgAAAAQAAAEAAAAAAAEPAAgC' +
  'EAADAAEABQAAAQAAAAAAAQ8ACAIQAAQAAAAEAAABAAAAAAABDwD9AAoAAAAAAA8AAAAAAP0ACgAAAAEADwABAAAA/QAKAAAAAgAP' +
  'AAIAAAD9AAoAAAADAA8AAwAAAP0ACgAAAAQADwAEAAAA/QAKAAEAAAAPAAUAAAB+AgoAAQABAA8A6wMAAAUCCQABAAIAFQABAAAG' +
  'AB0AAQADAA8AAAAAAAAAGEAAAAAAAAAHAB4CAB4DAAX9AAoAAQAEAA8ABgAAAP0ACgACAAAADwAHAAAAAwIOAAIAAQAWAEivvJry' +
  '13q+BQIJAAIAAgAVAAAAAAYAHwACAAMADwAAAAAAAAAAAAAAAAAAAAkAFwEAYRcBAGIIAwIOAAMAAQAPAADkX5zndKZCBgAdAAMA' +
  'AwAPAAIABwAAAP//AAAAAAAABwAeAQAeAAAG/QAKAAMABAAPAAgAAAD9AAoABAAAAA8ACQAAAH4CCgAEAAEADwACAAAABQIJAAQA' +
  'AgAVAAEAAAYAIwAEAAMADwAAAAAAAADwPwAAAAAAAA0AFwMAYWJjQSAAHgIADewAUAAPAALwSAAAABAACPAIAAAAAQAAAAAEAAAP' +
  'AAPwMAAAAA8ABPAoAAAAAQAJ8BAAAAAAAAAAAAAAAAAAAAAAAAAAAgAK8AgAAAAABAAABQAAAD4CEgC2BgAAAABAAAAAPABkAAAA' +
  'AAAdAA8AAwAAAAAAAAEAAAAAAAAAZwgXAGcIAAAAAAAAAAAAAAIAAf////8AAAAACgAAAAAAAAAAAAAAAAAAAAAAAQD+/wMKAAD/' +
  '////EAgCAAAAAADAAAAAAAAARhsAAABNaWNyb3NvZnQgRXhjZWwgOTctVGFiZWxsZQAGAAAAQmlmZjgAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABAAACAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/v8AAAEAAgAAAAAAAAAAAAAAAAAAAAAAAQAAAOCFn/L5T2gQq5EIACsn' +
  's9kwAAAAfAAAAAYAAAABAAAAOAAAAAkAAABAAAAACgAAAEwAAAALAAAAWAAAAAwAAABkAAAADQAAAHAAAAACAAAA6f0AAB4AAAAC' +
  'AAAAMAAAAEAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  '/v8AAAEAAgAAAAAAAAAAAAAAAAAAAAAAAgAAAALVzdWcLhsQk5cIACss+a5EAAAABdXN1ZwuGxCTlwgAKyz5rlwAAAAYAAAAAQAA' +
  'AAEAAAAQAAAAAgAAAOn9AAAYAAAAAQAAAAEAAAAQAAAAAgAAAOn9AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAABSAG8AbwB0ACAARQBuAHQAcgB5AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAFgAFAP//////////AQAAABAIAgAAAAAAwAAAAAAAAEYAAAAAAAAAAAAAAAAAAAAAAAAAAAMAAABACwAAAAAAAFcA' +
  'bwByAGsAYgBvAG8AawAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAASAAIAAgAAAAQAAAD/' +
  '////AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAADIJAAAAAAAAAQBDAG8AbQBwAE8AYgBqAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAABIAAgADAAAA//////////8AAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAlAAAASQAAAAAAAAABAE8AbABlAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAACgACAP///////////////wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACcAAAAU' +
  'AAAAAAAAAAUAUwB1AG0AbQBhAHIAeQBJAG4AZgBvAHIAbQBhAHQAaQBvAG4AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAoAAIA' +
  '/////wUAAAD/////AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAKAAAAKwAAAAAAAAABQBEAG8AYwB1AG0AZQBu' +
  'AHQAUwB1AG0AbQBhAHIAeQBJAG4AZgBvAHIAbQBhAHQAaQBvAG4AAAAAAAAAAAAAADgAAgD///////////////8AAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAArAAAAdAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAP///////////////wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAP7///8AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' +
  'AAAAAAAAAAAA////////////////AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/v///wAAAAAAAAAA';
const xlsChains = [
  sheetChain('xls', N('To xls', 'convertToFile', 1.1, { operation: 'xls', options: {} }), [
    N('From xls', 'extractFromFile', 1, { operation: 'xls', options: {} }),
    N('From xls no header', 'extractFromFile', 1, { operation: 'xls', options: { headerRow: false } }),
    N('From xls empty cells', 'extractFromFile', 1, { operation: 'xls', options: { includeEmptyCells: true } }),
    N('From xls range', 'extractFromFile', 1, { operation: 'xls', options: { range: 1 } }),
    N('From xls range text', 'extractFromFile', 1, { operation: 'xls', options: { range: 'B1:D3' } }),
    N('From xls raw', 'extractFromFile', 1, { operation: 'xls', options: { rawData: true } }),
    N(
      'From xls wrong sheet',
      'extractFromFile',
      1,
      { operation: 'xls', options: { sheetName: 'Nope' } },
      { continueOnFail: true },
    ),
    N('From xls as xlsx', 'extractFromFile', 1, { operation: 'xlsx', options: {} }, { continueOnFail: true }),
  ]),
  sheetChain(
    'xls options',
    N('To xls options', 'convertToFile', 1.1, {
      operation: 'xls',
      binaryPropertyName: 'sheet',
      options: { sheetName: 'Rows & more', headerRow: false, fileName: 'out.xls' },
    }),
    [
      N('From xls options', 'extractFromFile', 1, {
        operation: 'xls',
        binaryPropertyName: 'sheet',
        options: { sheetName: 'Rows & more', headerRow: false },
      }),
    ],
    'sheet',
  ),
  sheetChain(
    'xls named',
    N('To xls named', 'convertToFile', 1.1, { operation: 'xls', options: { sheetName: 'S', fileName: 'x' } }),
    [
      N('From xls named', 'extractFromFile', 1, {
        operation: 'xls',
        options: { sheetName: 'S', includeEmptyCells: true },
      }),
    ],
  ),
  sheetChain('xlsx read as xls', N('To xlsx for xls', 'convertToFile', 1.1, { operation: 'xlsx', options: {} }), [
    N('From xlsx as xls', 'extractFromFile', 1, { operation: 'xls', options: {} }, { continueOnFail: true }),
  ]),
  sheetChain('fixed sheetjs xls', archive('Fixed sheetjs xls', 'sheetjs', 'made.xls', { executeOnce: true }), [
    N('Read sheetjs xls', 'extractFromFile', 1, { operation: 'xls', options: {} }),
    N('Read sheetjs xls rows', 'extractFromFile', 1, { operation: 'xls', options: { headerRow: false } }),
    N('Read sheetjs xls empty', 'extractFromFile', 1, { operation: 'xls', options: { includeEmptyCells: true } }),
    N('Read sheetjs xls second', 'extractFromFile', 1, { operation: 'xls', options: { sheetName: 'Second & more' } }),
    N('Read sheetjs xls range', 'extractFromFile', 1, {
      operation: 'xls',
      options: { range: 'A2:C4', headerRow: false },
    }),
  ]),
  sheetChain(
    'fixed libreoffice xls',
    archive('Fixed libreoffice xls', 'libreoffice', 'lo.xls', { executeOnce: true }),
    [
      N('Read libreoffice xls', 'extractFromFile', 1, { operation: 'xls', options: {} }),
      N('Read libreoffice xls rows', 'extractFromFile', 1, { operation: 'xls', options: { headerRow: false } }),
      N('Read libreoffice xls empty', 'extractFromFile', 1, { operation: 'xls', options: { includeEmptyCells: true } }),
    ],
  ),
  sheetChain('fixed hand xls', archive('Fixed hand xls', 'hand', 'excel.xls', { executeOnce: true }), [
    N('Read hand xls', 'extractFromFile', 1, { operation: 'xls', options: {} }),
    N('Read hand xls rows', 'extractFromFile', 1, { operation: 'xls', options: { headerRow: false } }),
    N('Read hand xls empty', 'extractFromFile', 1, { operation: 'xls', options: { includeEmptyCells: true } }),
    N('Read hand xls raw', 'extractFromFile', 1, { operation: 'xls', options: { rawData: true, headerRow: false } }),
    N('Read hand xls second', 'extractFromFile', 1, { operation: 'xls', options: { sheetName: 'Empty' } }),
  ]),
];
add('files-xls-read', {
  nodes: xlsChains.flatMap((c) => c.nodes),
  connections: {
    Input: [xlsChains.map((c) => [c.nodes[0].name])],
    ...Object.fromEntries(xlsChains.flatMap((c) => c.links.map(([from, to]) => [from, [to.map((t) => [t])]]))),
  },
  bodies: {
    rows: sheetRowsIn.map((r, i) =>
      i === 0 ? { ...r, sheetjs: FIXED_XLS_SHEETJS, hand: FIXED_XLS_HAND, libreoffice: FIXED_XLS_LIBREOFFICE } : r,
    ),
  },
});

// Spreadsheet File with xls, its default format (v2 and v1), both ways.
add('spreadsheet-file-xls', {
  nodes: [
    N('Write xls', 'spreadsheetFile', 2, { operation: 'toFile', options: {} }),
    meta2('Meta xls'),
    N('Read xls', 'spreadsheetFile', 2, { operation: 'fromFile', fileFormat: 'xls', options: {} }),
    N('Read xls auto', 'spreadsheetFile', 2, { operation: 'fromFile', options: { headerRow: false } }),
    N('Write xls options', 'spreadsheetFile', 2, {
      operation: 'toFile',
      fileFormat: 'xls',
      binaryPropertyName: 'f',
      options: { sheetName: 'Mine', headerRow: false, fileName: 'mine.xls' },
    }),
    meta2('Meta xls options', 'f'),
    N('Read xls options', 'spreadsheetFile', 2, {
      operation: 'fromFile',
      binaryPropertyName: 'f',
      options: { sheetName: 'Mine', headerRow: false, includeEmptyCells: true },
    }),
    N('Write xls v1', 'spreadsheetFile', 1, { operation: 'toFile', fileFormat: 'xls', options: {} }),
    meta2('Meta xls v1'),
    N('Read xls v1', 'spreadsheetFile', 1, { operation: 'fromFile', options: {} }),
  ],
  connections: {
    Input: [[['Write xls'], ['Write xls options'], ['Write xls v1']]],
    'Write xls': [[['Meta xls'], ['Read xls'], ['Read xls auto']]],
    'Write xls options': [[['Meta xls options'], ['Read xls options']]],
    'Write xls v1': [[['Meta xls v1'], ['Read xls v1']]],
  },
  bodies: { rows: sheetRowsIn },
});
