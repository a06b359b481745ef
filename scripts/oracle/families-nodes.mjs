// Node-by-node oracle cases: one workflow per node type, typeVersion and parameter/option.
// `nodes` are chained after the Input node; every case runs with each input family (inputs.mjs).
const T = (t) => `n8n-nodes-base.${t}`;
const node = (type, typeVersion, parameters, extra = {}) => ({
  name: 'Test',
  type: T(type),
  typeVersion,
  parameters,
  ...extra,
});
const asg = (list) => ({ assignments: list.map(([name, type, value], i) => ({ id: `a${i}`, name, type, value })) });
const cond = (leftValue, type, operation, rightValue, extra = {}) => ({
  id: `c-${type}-${operation}`,
  leftValue,
  rightValue,
  operator: { type, operation, ...(rightValue === undefined ? { singleValue: true } : {}) },
  ...extra,
});
const filterParams = (
  conditions,
  { combinator = 'and', caseSensitive = true, typeValidation = 'strict', version = 2 } = {},
) => ({
  options: { version, caseSensitive, leftValue: '', typeValidation },
  combinator,
  conditions,
});

const families = [];
const add = (name, nodes, more = {}) => families.push({ name, nodes: Array.isArray(nodes) ? nodes : [nodes], ...more });

// ---- Set (Edit Fields) ------------------------------------------------------------------------
const typed = asg([
  ['name', 'string', '={{ $json.name }}'],
  ['age', 'number', '={{ $json.age }}'],
  ['active', 'boolean', '={{ $json.active }}'],
]);
for (const v of [3.4, 3.3, 3.2]) add(`set-${v}-typed`, node('set', v, { assignments: typed, options: {} }));
add('set-3.4-ignore-conversion', node('set', 3.4, { assignments: typed, options: { ignoreConversionErrors: true } }));
add(
  'set-3.4-array-object',
  node('set', 3.4, {
    assignments: asg([
      ['tags', 'array', '={{ $json.tags }}'],
      ['whole', 'object', '={{ $json }}'],
      ['score', 'number', '={{ $json.score }}'],
    ]),
    options: { ignoreConversionErrors: true },
  }),
);
add(
  'set-3.4-string-from-any',
  node('set', 3.4, {
    assignments: asg([
      ['s1', 'string', '={{ $json.age }}'],
      ['s2', 'string', '={{ $json.tags }}'],
      ['s3', 'string', '={{ $json.missing }}'],
      ['s4', 'string', '=Hi {{ $json.name }}!'],
    ]),
    options: {},
  }),
);
add(
  'set-3.4-empty-expressions',
  node('set', 3.4, {
    assignments: asg([
      ['e1', 'string', '='],
      ['e2', 'number', '={{ $json.nope }}'],
      ['e3', 'boolean', ''],
      ['e4', 'string', 'literal {{ not }}'],
    ]),
    options: { ignoreConversionErrors: true },
  }),
);
add(
  'set-3.4-include-all',
  node('set', 3.4, {
    assignments: asg([['upper', 'string', '={{ ($json.name ?? "").toString().toUpperCase() }}']]),
    includeOtherFields: true,
    options: {},
  }),
);
add(
  'set-3.4-include-selected',
  node('set', 3.4, {
    assignments: asg([['x', 'number', '1']]),
    includeOtherFields: true,
    include: 'selected',
    includeFields: 'name, city',
    options: {},
  }),
);
add(
  'set-3.4-include-except',
  node('set', 3.4, {
    assignments: asg([['x', 'number', '1']]),
    includeOtherFields: true,
    include: 'except',
    excludeFields: 'tags,html',
    options: {},
  }),
);
add(
  'set-3.4-dot-notation',
  node('set', 3.4, {
    assignments: asg([
      ['a.b', 'string', '={{ $json.name }}'],
      ['c.d.e', 'number', '2'],
    ]),
    options: {},
  }),
);
add(
  'set-3.4-no-dot-notation',
  node('set', 3.4, { assignments: asg([['a.b', 'string', '={{ $json.name }}']]), options: { dotNotation: false } }),
);
add(
  'set-3.4-raw',
  node('set', 3.4, {
    mode: 'raw',
    jsonOutput: '={\n  "who": {{ JSON.stringify($json.name ?? null) }},\n  "n": 1\n}\n',
    options: {},
  }),
);
add(
  'set-3.4-raw-include',
  node('set', 3.4, { mode: 'raw', jsonOutput: '{"fixed": true}', includeOtherFields: true, options: {} }),
);
add(
  'set-3.2-include-none',
  node('set', 3.2, { assignments: asg([['x', 'string', '={{ $json.city }}']]), include: 'none', options: {} }),
);
add(
  'set-3.0-default',
  node('set', 3, {
    fields: {
      values: [
        { name: 'x', stringValue: '={{ $json.name }}' },
        { name: 'n', type: 'numberValue', numberValue: '={{ $json.age }}' },
      ],
    },
    options: {},
  }),
);
add(
  'set-2-keep-only',
  node('set', 2, {
    keepOnlySet: true,
    values: {
      string: [{ name: 'n', value: '={{ $json.name }}' }],
      number: [{ name: 'age2', value: '={{ $json.age }}' }],
      boolean: [{ name: 'b', value: '={{ $json.active }}' }],
    },
    options: {},
  }),
);
add(
  'set-1-keep-all',
  node('set', 1, {
    values: { string: [{ name: 'nested.x', value: '={{ $json.city }}' }], number: [{ name: 'k', value: 4 }] },
    options: {},
  }),
);
add(
  'set-1-no-dot',
  node('set', 1, {
    keepOnlySet: true,
    values: { string: [{ name: 'nested.x', value: '={{ $json.city }}' }] },
    options: { dotNotation: false },
  }),
);

// ---- IF ---------------------------------------------------------------------------------------
add(
  'if-2.2-string-equals',
  node('if', 2.2, { conditions: filterParams([cond('={{ $json.city }}', 'string', 'equals', 'Paris')]), options: {} }),
);
add(
  'if-2.2-string-ignore-case',
  node('if', 2.2, {
    conditions: filterParams([cond('={{ $json.city }}', 'string', 'contains', 'PAR')], { caseSensitive: false }),
    options: {},
  }),
);
add(
  'if-2.2-number-gt-strict',
  node('if', 2.2, { conditions: filterParams([cond('={{ $json.age }}', 'number', 'gt', 30)]), options: {} }),
);
add(
  'if-2.2-number-gt-loose',
  node('if', 2.2, {
    conditions: filterParams([cond('={{ $json.age }}', 'number', 'gt', 30)], { typeValidation: 'loose' }),
    looseTypeValidation: true,
    options: {},
  }),
);
add(
  'if-2.2-exists-empty',
  node('if', 2.2, {
    conditions: filterParams(
      [cond('={{ $json.name }}', 'string', 'exists'), cond('={{ $json.tags }}', 'array', 'notEmpty')],
      { combinator: 'or' },
    ),
    options: {},
  }),
);
add(
  'if-2.2-boolean-true',
  node('if', 2.2, { conditions: filterParams([cond('={{ $json.active }}', 'boolean', 'true')]), options: {} }),
);
add(
  'if-2.2-boolean-true-loose',
  node('if', 2.2, {
    conditions: filterParams([cond('={{ $json.active }}', 'boolean', 'true')], { typeValidation: 'loose' }),
    looseTypeValidation: true,
    options: {},
  }),
);
add(
  'if-2.2-array-contains',
  node('if', 2.2, { conditions: filterParams([cond('={{ $json.tags }}', 'array', 'contains', 'a')]), options: {} }),
);
add(
  'if-2.2-date-after',
  node('if', 2.2, {
    conditions: filterParams([cond('={{ $json.when }}', 'dateTime', 'after', '2024-01-01T00:00:00Z')]),
    options: {},
  }),
);
add(
  'if-2.2-regex-empty-left',
  node('if', 2.2, {
    conditions: filterParams([
      cond('', 'string', 'regex', '^$'),
      cond('={{ $json.name }}', 'string', 'regex', '^[A-Z]'),
    ]),
    options: {},
  }),
);
add(
  'if-2-number-lte',
  node('if', 2, {
    conditions: filterParams([cond('={{ $json.score }}', 'number', 'lte', 5)], { version: 1 }),
    options: {},
  }),
);
add(
  'if-1-typed',
  node('if', 1, {
    conditions: {
      number: [{ value1: '={{ $json.age }}', operation: 'larger', value2: 26 }],
      string: [{ value1: '={{ $json.city }}', operation: 'contains', value2: 'a' }],
    },
    combineOperation: 'any',
  }),
);
add('if-1-defaults', node('if', 1, { conditions: { number: [{ value1: '={{ $json.score }}' }] } }));
add(
  'if-1-boolean-empty',
  node('if', 1, {
    conditions: {
      boolean: [{ value1: '={{ $json.active }}', value2: true }],
      string: [{ value1: '={{ $json.name }}', operation: 'isEmpty' }],
    },
    combineOperation: 'all',
  }),
);

// ---- Filter -----------------------------------------------------------------------------------
add(
  'filter-2.2-number',
  node('filter', 2.2, { conditions: filterParams([cond('={{ $json.score }}', 'number', 'gte', 3)]), options: {} }),
);
add(
  'filter-2.2-loose',
  node('filter', 2.2, {
    conditions: filterParams([cond('={{ $json.score }}', 'number', 'gte', 3)], { typeValidation: 'loose' }),
    looseTypeValidation: true,
    options: {},
  }),
);
add(
  'filter-2.2-string-not-empty',
  node('filter', 2.2, { conditions: filterParams([cond('={{ $json.city }}', 'string', 'notEmpty')]), options: {} }),
);
add(
  'filter-2-length',
  node('filter', 2, {
    conditions: filterParams([cond('={{ $json.tags }}', 'array', 'lengthGte', 1)], { version: 1 }),
    options: {},
  }),
);
add(
  'filter-1-string',
  node('filter', 1, {
    conditions: { string: [{ value1: '={{ $json.name }}', operation: 'startsWith', value2: 'A' }] },
  }),
);

// ---- Switch -----------------------------------------------------------------------------------
const rule = (c, outputKey) => ({
  conditions: filterParams([c]),
  renameOutput: !!outputKey,
  ...(outputKey ? { outputKey } : {}),
});
add(
  'switch-3.2-rules',
  node('switch', 3.2, {
    rules: {
      values: [
        rule(cond('={{ $json.city }}', 'string', 'equals', 'Paris')),
        rule(cond('={{ $json.age }}', 'number', 'lt', 30)),
      ],
    },
    options: {},
  }),
);
add(
  'switch-3.2-fallback-extra',
  node('switch', 3.2, {
    rules: { values: [rule(cond('={{ $json.city }}', 'string', 'equals', 'Paris'), 'paris')] },
    options: { fallbackOutput: 'extra', renameFallbackOutput: 'other' },
  }),
);
add(
  'switch-3.2-all-matching',
  node('switch', 3.2, {
    rules: {
      values: [
        rule(cond('={{ $json.name }}', 'string', 'exists')),
        rule(cond('={{ $json.active }}', 'boolean', 'true')),
      ],
    },
    options: { allMatchingOutputs: true },
  }),
);
add(
  'switch-3.2-ignore-case-loose',
  node('switch', 3.2, {
    rules: { values: [rule(cond('={{ $json.city }}', 'string', 'equals', 'PARIS'))] },
    looseTypeValidation: true,
    options: { ignoreCase: true, fallbackOutput: 0 },
  }),
);
add(
  'switch-3.2-expression',
  node('switch', 3.2, {
    mode: 'expression',
    numberOutputs: 3,
    output: '={{ ($json.age ?? 0) > 30 ? 2 : ($json.name ? 1 : 0) }}',
  }),
);
add(
  'switch-2-rules',
  node('switch', 2, {
    dataType: 'string',
    value1: '={{ $json.city }}',
    rules: {
      rules: [
        { value2: 'Paris', output: 0 },
        { operation: 'contains', value2: 'e', output: 1 },
      ],
    },
    fallbackOutput: 3,
  }),
);
add(
  'switch-1-number',
  node('switch', 1, {
    dataType: 'number',
    value1: '={{ $json.age }}',
    rules: {
      rules: [
        { operation: 'smaller', value2: 30, output: 0 },
        { operation: 'largerEqual', value2: 30, output: 2 },
      ],
    },
    fallbackOutput: 3,
  }),
);

// ---- Summarize, Aggregate, Remove Duplicates, Split Out, Sort, Limit --------------------------
const sum = (values, extra = {}) => ({ fieldsToSummarize: { values }, options: {}, ...extra });
add(
  'summarize-count-sum',
  node(
    'summarize',
    1,
    sum([{ field: 'name' }, { aggregation: 'sum', field: 'score' }, { aggregation: 'average', field: 'age' }]),
  ),
);
add(
  'summarize-min-max-unique',
  node(
    'summarize',
    1,
    sum([
      { aggregation: 'min', field: 'age' },
      { aggregation: 'max', field: 'score' },
      { aggregation: 'countUnique', field: 'city' },
    ]),
  ),
);
add(
  'summarize-split-by',
  node(
    'summarize',
    1,
    sum(
      [
        { aggregation: 'count', field: 'name' },
        { aggregation: 'sum', field: 'age' },
      ],
      { fieldsToSplitBy: 'city' },
    ),
  ),
);
add(
  'summarize-split-separate',
  node(
    'summarize',
    1,
    sum([{ aggregation: 'append', field: 'name' }], {
      fieldsToSplitBy: 'city, active',
      options: { outputFormat: 'separateItems' },
    }),
  ),
);
add(
  'summarize-concatenate',
  node(
    'summarize',
    1,
    sum([
      { aggregation: 'concatenate', field: 'name', separateBy: 'other', customSeparator: ' | ' },
      { aggregation: 'concatenate', field: 'city' },
    ]),
  ),
);
add(
  'summarize-append-unique',
  node(
    'summarize',
    1,
    sum([
      { aggregation: 'append', field: 'tags', includeEmpty: true },
      { aggregation: 'countUnique', field: 'tags' },
    ]),
  ),
);
add(
  'summarize-no-dot',
  node('summarize', 1, sum([{ aggregation: 'count', field: 'a.b' }], { options: { disableDotNotation: true } })),
);
add(
  'summarize-skip-empty-split',
  node(
    'summarize',
    1,
    sum([{ aggregation: 'sum', field: 'score' }], { fieldsToSplitBy: 'name', options: { skipEmptySplitFields: true } }),
  ),
);
add(
  'aggregate-individual',
  node('aggregate', 1, {
    fieldsToAggregate: {
      fieldToAggregate: [
        { fieldToAggregate: 'name' },
        { fieldToAggregate: 'tags', renameField: true, outputFieldName: 'allTags' },
      ],
    },
    options: {},
  }),
);
add(
  'aggregate-merge-lists',
  node('aggregate', 1, {
    fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'tags' }] },
    options: { mergeLists: true },
  }),
);
add(
  'aggregate-keep-missing',
  node('aggregate', 1, {
    fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'age' }] },
    options: { keepMissing: true },
  }),
);
add(
  'aggregate-all',
  node('aggregate', 1, { aggregate: 'aggregateAllItemData', destinationFieldName: 'rows', options: {} }),
);
add(
  'aggregate-all-except',
  node('aggregate', 1, {
    aggregate: 'aggregateAllItemData',
    include: 'allFieldsExcept',
    fieldsToExclude: 'tags, html',
    options: {},
  }),
);
add(
  'remove-duplicates-2-all',
  node('removeDuplicates', 2, { operation: 'removeDuplicateInputItems', compare: 'allFields', options: {} }),
  {
    bodies: {
      dup: { items: [{ a: 1, b: 'x' }, { a: 1, b: 'x' }, { a: 2 }, { b: 'x', a: 1 }] },
      none: { items: [] },
      ordinary: { items: [{ name: 'Ann' }, { name: 'Ann', city: null }] },
    },
  },
);
add(
  'remove-duplicates-2-selected',
  node('removeDuplicates', 2, {
    operation: 'removeDuplicateInputItems',
    compare: 'selectedFields',
    fieldsToCompare: 'city',
    options: {},
  }),
);
add(
  'remove-duplicates-2-except',
  node('removeDuplicates', 2, {
    operation: 'removeDuplicateInputItems',
    compare: 'allFieldsExcept',
    fieldsToExclude: 'name, when, html, tags, score, age, active',
    options: { removeOtherFields: false },
  }),
);
add(
  'remove-duplicates-1-selected-remove-other',
  node('removeDuplicates', 1, {
    compare: 'selectedFields',
    fieldsToCompare: { fields: [{ fieldName: 'city' }] },
    options: { removeOtherFields: true },
  }),
);
add('split-out-tags', node('splitOut', 1, { fieldToSplitOut: 'tags', options: {} }));
add(
  'split-out-include-all',
  node('splitOut', 1, { fieldToSplitOut: 'tags', include: 'allOtherFields', options: { destinationFieldName: 'tag' } }),
);
add(
  'split-out-selected',
  node('splitOut', 1, {
    fieldToSplitOut: 'tags',
    include: 'selectedOtherFields',
    fieldsToInclude: 'name',
    options: {},
  }),
);
add('split-out-nested', node('splitOut', 1, { fieldToSplitOut: 'data.list, data.other', options: {} }), {
  bodies: {
    nested: { items: [{ data: { list: [1, { a: 2 }], other: ['x', 'y'] } }] },
    dotted: { items: [{ 'data.list': [1, 2] }] },
    missing: { items: [{ data: {} }] },
    object: { items: [{ data: { list: { k: 1 }, other: [] } }] },
  },
});
add('split-out-binary-off', node('splitOut', 1, { fieldToSplitOut: 'city', options: { disableDotNotation: true } }));
add('sort-age-asc', node('sort', 1, { sortFieldsUi: { sortField: [{ fieldName: 'age' }] }, options: {} }));
add(
  'sort-multi-desc',
  node('sort', 1, {
    sortFieldsUi: { sortField: [{ fieldName: 'city', order: 'descending' }, { fieldName: 'name' }] },
    options: {},
  }),
);
// Random order: the items are compared as a multiset, at the node's output and in the answer.
const UNORDERED = { unorderedPaths: ['/nodes/Test/0/output/0', '/response/body'] };
add('sort-random', node('sort', 1, { type: 'random' }), {
  inputs: ['ordinary', 'unicode', 'mixed', 'none'],
  ...UNORDERED,
});
add(
  'sort-code',
  node('sort', 1, {
    type: 'code',
    code: '// sort by name length\nreturn (a.json.name ?? "").length - (b.json.name ?? "").length;',
  }),
);
add('limit-first', node('limit', 1, { maxItems: 2 }));
add('limit-last', node('limit', 1, { maxItems: 2, keep: 'lastItems' }));

// ---- Code, Function, Function Item ------------------------------------------------------------
add(
  'code-all-map',
  node('code', 2, {
    jsCode:
      'return $input.all().map((it, i) => ({ json: { i, name: it.json.name, keys: Object.keys(it.json).length } }));',
  }),
);
add('code-each-item', node('code', 2, { mode: 'runOnceForEachItem', jsCode: '$json.seen = true;\nreturn $json;' }));
add('code-return-null', node('code', 2, { jsCode: 'return null;' }));
add('code-mixed-returns', node('code', 2, { jsCode: 'return [{ a: 1 }, { json: { b: 2 } }];' }));
add(
  'code-each-return-array',
  node('code', 2, { mode: 'runOnceForEachItem', jsCode: 'return [{ json: { n: $json.name } }];' }),
);
add(
  'code-throw',
  node('code', 2, { jsCode: 'if ($input.all().length > 1) throw new Error("too many items");\nreturn $input.all();' }),
);
add('code-items-reassign', node('code', 1, { jsCode: 'items = items.filter((i) => i.json.age);\nreturn items;' }));
add(
  'function-basic',
  node('function', 1, { functionCode: 'for (const item of items) { item.json.count = items.length; }\nreturn items;' }),
);
add('function-return-object', node('function', 1, { functionCode: 'return { json: { total: items.length } };' }));
add('function-item-basic', node('functionItem', 1, { functionCode: 'item.name2 = item.name;\nreturn item;' }));
add('function-item-reassign', node('functionItem', 1, { functionCode: 'item = { only: true };\nreturn item;' }));

// ---- Date & Time ------------------------------------------------------------------------------
// An absent date means "now" for extract and difference: only inputs that have one, so the recording stays valid.
const DATED = ['ordinary', 'unicode', 'numStrings', 'mixed', 'nulls'];
add(
  'datetime-2-format',
  node('dateTime', 2, {
    operation: 'formatDate',
    date: '={{ $json.when }}',
    format: 'custom',
    customFormat: 'yyyy-MM-dd HH:mm',
    options: {},
  }),
);
add(
  'datetime-2-format-tz',
  node('dateTime', 2, {
    operation: 'formatDate',
    date: '={{ $json.when }}',
    format: 'MM/dd/yyyy',
    outputFieldName: 'out',
    options: { timezone: 'America/New_York', includeInputFields: true },
  }),
);
add(
  'datetime-2-add',
  node('dateTime', 2, {
    operation: 'addToDate',
    magnitude: '={{ $json.when }}',
    timeUnit: 'days',
    duration: 2,
    options: {},
  }),
);
add(
  'datetime-2-subtract',
  node('dateTime', 2, {
    operation: 'subtractFromDate',
    magnitude: '={{ $json.when }}',
    timeUnit: 'hours',
    duration: 5,
    outputFieldName: 'earlier',
    options: { includeInputFields: true },
  }),
);
add(
  'datetime-2-extract',
  node('dateTime', 2, { operation: 'extractDate', date: '={{ $json.when }}', part: 'month', options: {} }),
  { inputs: DATED },
);
add(
  'datetime-2-round',
  node('dateTime', 2, {
    operation: 'roundDate',
    date: '={{ $json.when }}',
    mode: 'roundDown',
    toNearest: 'day',
    options: {},
  }),
);
add(
  'datetime-2-between',
  node('dateTime', 2, {
    operation: 'getTimeBetweenDates',
    startDate: '={{ $json.when }}',
    endDate: '2025-01-01T00:00:00Z',
    units: ['day', 'hour'],
    options: {},
  }),
  { inputs: DATED },
);
add(
  'datetime-1-format',
  node('dateTime', 1, {
    value: '={{ $json.when }}',
    dataPropertyName: 'formatted',
    custom: true,
    toFormat: 'YYYY-MM-DD',
    options: {},
  }),
);
add(
  'datetime-1-format-tz',
  node('dateTime', 1, {
    value: '={{ $json.when }}',
    dataPropertyName: 'when',
    toFormat: 'MMMM Do YYYY, h:mm a',
    options: { toTimezone: 'Europe/Paris' },
  }),
);
add(
  'datetime-1-calculate',
  node('dateTime', 1, {
    action: 'calculate',
    value: '={{ $json.when }}',
    operation: 'add',
    duration: 3,
    timeUnit: 'days',
    dataPropertyName: 'later',
    options: {},
  }),
);

// ---- Markdown, Rename Keys, XML, HTML, Crypto, Item Lists, Compare Datasets, unknown ---------
add('markdown-to-md', node('markdown', 1, { html: '={{ $json.html }}', destinationKey: 'md', options: {} }));
add(
  'markdown-to-html',
  node('markdown', 1, {
    mode: 'markdownToHtml',
    markdown: '=# {{ $json.name }}\n\n*{{ $json.city }}*',
    destinationKey: 'h',
    options: {},
  }),
);
add(
  'rename-keys',
  node('renameKeys', 1, {
    keys: {
      key: [
        { currentKey: 'name', newKey: 'fullName' },
        { currentKey: 'city', newKey: 'place.town' },
      ],
    },
    additionalOptions: {},
  }),
);
add(
  'rename-keys-regex',
  node('renameKeys', 1, {
    keys: {},
    additionalOptions: {
      regexReplacement: { replacements: [{ searchRegex: '^(a)', replaceRegex: 'A_$1', options: {} }] },
    },
  }),
);
add('xml-to-json', node('xml', 1, { mode: 'xmlToJson', dataPropertyName: 'xml', options: {} }), {
  bodies: {
    simple: { items: [{ xml: '<root><a>1</a><b x="y">t</b></root>' }] },
    list: { items: [{ xml: '<l><i>1</i><i>2</i></l>' }] },
    missing: { items: [{ other: 1 }] },
    bad: { items: [{ xml: 'not xml <' }] },
  },
});
add('xml-from-json', node('xml', 1, { mode: 'jsonToxml', dataPropertyName: 'xml', options: {} }), {
  inputs: ['ordinary', 'empty', 'unicode', 'nulls'],
});
add(
  'html-extract',
  node('html', 1.2, {
    operation: 'extractHtmlContent',
    dataPropertyName: 'html',
    extractionValues: {
      values: [
        { key: 'text', cssSelector: 'p, h1', returnValue: 'text' },
        { key: 'links', cssSelector: 'a', returnValue: 'attribute', attribute: 'href', returnArray: true },
      ],
    },
    options: {},
  }),
);
add(
  'html-extract-legacy',
  node('htmlExtract', 1, {
    sourceData: 'json',
    dataPropertyName: 'html',
    extractionValues: {
      values: [
        { key: 'text', cssSelector: 'p, h1', returnValue: 'text' },
        { key: 'first', cssSelector: 'li', returnValue: 'html' },
      ],
    },
    options: { trimValues: true },
  }),
);
add('crypto-hash', node('crypto', 1, { type: 'SHA256', value: '={{ $json.name }}', dataPropertyName: 'hash' }));
add(
  'crypto-hmac',
  node('crypto', 1, {
    action: 'hmac',
    type: 'SHA1',
    value: '={{ $json.city }}',
    dataPropertyName: 'sig',
    secret: 'k',
    encoding: 'base64',
  }),
);
// Random values: checked for their form (type, length, alphabet) as n8n's were, not their value.
for (const [enc, extra] of [
  ['uuid', {}],
  ['hex', { stringLength: 16 }],
  ['base64', {}],
  ['ascii', { stringLength: 12 }],
]) {
  add(
    `crypto-generate-${enc}`,
    node('crypto', 1, { action: 'generate', encodingType: enc, dataPropertyName: 'secret', ...extra }),
    { inputs: ['ordinary', 'empty', 'nulls'], volatileShapes: true },
  );
}
add('item-lists-split', node('itemLists', 3, { fieldToSplitOut: 'tags', options: {} }));
add(
  'item-lists-aggregate',
  node('itemLists', 3, {
    operation: 'concatenateItems',
    fieldsToAggregate: { fieldToAggregate: [{ fieldToAggregate: 'name' }] },
    options: {},
  }),
);
add(
  'item-lists-1-summarize',
  node('itemLists', 1, {
    operation: 'removeDuplicates',
    compare: 'selectedFields',
    fieldsToCompare: { fields: [{ fieldName: 'city' }] },
    options: {},
  }),
);
add('unknown-node-type', node('doesNotExist', 1, {}), { inputs: ['ordinary'] });

export const NODE_FAMILIES = families;
