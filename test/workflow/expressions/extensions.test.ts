import { afterAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { createExpressions } from '../../../src/services/workflow/expressions/index.js';
import { ExpressionError } from '../../../src/services/workflow/expressions/api.js';
import { items, makeData } from './helpers.js';

const ex = createExpressions({ timeoutMs: 2000, memoryBytes: 64 * 1024 * 1024 });
afterAll(() => ex.close());
const data = makeData({
  input: items({
    email: 'Call Ann at ann@example.com today',
    url: 'see https://n8n.io/workflows?x=1 now',
    n: 1234.5678,
    list: [3, 1, 2, 3],
  }),
});
const r = (expr: string, d = data) => ex.resolve(`={{ ${expr} }}`, d);

describe('string extensions', () => {
  it.each([
    ["'hello world'.toTitleCase()", 'Hello World'],
    ["'the lord of the rings and a hobbit'.toTitleCase()", 'The Lord of the Rings and a Hobbit'],
    ["'iPhone deals-today'.toTitleCase()", 'iPhone Deals-Today'],
    ["'quick BROWN fox. and more'.toSentenceCase()", 'Quick brown fox. And more'],
    ["'Hello World-again'.toSnakeCase()", 'hello_world_again'],
    ["'BOB  smith-x'.toSnakeCase()", 'bob__smith_x'],
    // n8n 2.8.4 has no toCamelCase: the failing call leaves the segment empty.
    ["'hello big world'.toCamelCase()", undefined],
    ['$json.email.extractEmail()', 'ann@example.com'],
    ["'no email here'.extractEmail()", undefined],
    ["'me@Example.com'.extractDomain()", 'example.com'],
    ["'http://n8n.io/workflows'.extractDomain()", 'n8n.io'],
    ["'https://www.example.com:8080/path'.extractDomain()", 'www.example.com'],
    ['$json.url.extractUrl()', 'https://n8n.io/workflows?x=1'],
    ["'https://www.example.com/path/to/file?x=1'.extractUrlPath()", '/path/to/file'],
    ["'ann@example.com'.isEmail()", true],
    ["'ann@'.isEmail()", false],
    ["'https://n8n.io'.isUrl()", true],
    ["'n8n io'.isUrl()", false],
    ["'n8n.io'.isDomain()", true],
    ["'12.5'.isNumeric()", true],
    ["'12a'.isNumeric()", false],
    ["''.isEmpty()", true],
    ["' '.isEmpty()", false],
    ["'x'.isNotEmpty()", true],
    ["'123'.toNumber() + 1", 124],
    ["'1.5e3'.toNumber()", 1500],
    ["'42'.toInt()", 42],
    ["'false'.toBoolean()", false],
    ["'yes'.toBoolean()", true],
    ["'<p>Hello <b>you</b></p>'.removeTags()", 'Hello you'],
    ["'# Title\\n**bold** and [link](http://x)'.removeMarkdown()", 'Title\nbold and link'],
    ["'Crème brûlée à Zürich'.replaceSpecialChars()", 'Creme brulee a Zurich'],
    ['\'say "hi"\'.quote()', '"say \\"hi\\""'],
    ["'a b&c'.urlEncode()", 'a%20b%26c'],
    ["'a b&c'.urlEncode(true)", 'a%20b&c'],
    ["'a%20b%26c'.urlDecode()", 'a b&c'],
    ["'a%20b%26c'.urlDecode(true)", 'a b%26c'],
    ["'héllo'.base64Encode()", 'aMOpbGxv'],
    ["'aMOpbGxv'.base64Decode()", 'héllo'],
    ['\'{"a":[1]}\'.parseJson()', { a: [1] }],
    ["'x'.toJsonString()", '"x"'],
    // Native methods are not replaced.
    ["'abc'.includes('b')", true],
  ])('%s', async (expr, expected) => {
    expect(await r(expr)).toEqual(expected);
  });

  it('hashes like the host crypto does', async () => {
    expect(await r("'hello'.hash()")).toBe(createHash('md5').update('hello').digest('hex'));
    expect(await r("'hello'.hash('sha256')")).toBe(createHash('sha256').update('hello').digest('hex'));
    expect(await r("'hello'.hash('SHA512')")).toBe(createHash('sha512').update('hello').digest('hex'));
  });

  it('reports a failed conversion as an ExpressionError', async () => {
    await expect(r("'abc'.toNumber()")).rejects.toThrow(ExpressionError);
    await expect(r("'abc'.toNumber()")).rejects.toThrow('toNumber(): cannot convert to number');
    await expect(r("'not json'.parseJson()")).rejects.toThrow("parseJson(): the string isn't valid JSON");
  });

  it('converts strings to DateTimes', async () => {
    expect(await r("'2026-01-05'.toDateTime().toISO()")).toBe('2026-01-05T00:00:00.000Z');
    // The offset in the text is kept, as n8n does (observed with the oracle).
    expect(await r("'2026-01-05T10:00:00+02:00'.toDateTime().toISO()")).toBe('2026-01-05T10:00:00.000+02:00');
    expect(await r("'Mon, 05 Jan 2026 10:00:00 GMT'.toDateTime().toISO()")).toBe('2026-01-05T10:00:00.000Z');
    expect(await r("'05/01/2026'.toDateTime('dd/MM/yyyy').toFormat('yyyy-MM-dd')")).toBe('2026-01-05');
    await expect(r("'someday'.toDateTime()")).rejects.toThrow('toDateTime(): cannot convert "someday" to a date');
  });
});

describe('number and boolean extensions', () => {
  it.each([
    ['$json.n.round(2)', 1234.57],
    ['$json.n.round()', 1235],
    ['$json.n.floor()', 1234],
    ['$json.n.ceil()', 1235],
    ['(-3).abs()', 3],
    ['(4).isEven()', true],
    ['(3).isOdd()', true],
    ['(3.5).isInteger()', false],
    ["(1234.5).format('de-DE')", '1.234,5'],
    ["(0.256).format('en-US', { style: 'percent' })", '26%'],
    ['(1234.5).format()', '1,234.5'],
    ["(1735689600).toDateTime('s').toISO()", '2025-01-01T00:00:00.000Z'],
    ['(1735689600000).toDateTime().toISO()', '2025-01-01T00:00:00.000Z'],
    ["(45658).toDateTime('excel').toISO()", '2025-01-01T00:00:00.000Z'],
    ['(0).toBoolean()', false],
    ['true.toNumber()', 1],
    ['(5).isEmpty()', false],
    ["(1234.5).toLocaleString('de-DE')", '1.234,5'],
  ])('%s', async (expr, expected) => {
    expect(await r(expr)).toEqual(expected);
  });

  it('refuses isEven on a fraction', async () => {
    await expect(r('(2.5).isEven()')).rejects.toThrow('isEven(): only callable on integers');
  });
});

describe('array extensions', () => {
  it.each([
    ['$json.list.first()', 3],
    ['$json.list.last()', 3],
    ['$json.list.sum()', 9],
    ['$json.list.average()', 2.25],
    ['$json.list.min()', 1],
    ['$json.list.max()', 3],
    ['$json.list.unique()', [3, 1, 2]],
    ["[{ a: 1, b: 1 }, { a: 1, b: 2 }].unique('a')", [{ a: 1, b: 1 }]],
    ['[{ a: 1 }, { a: 1 }].removeDuplicates()', [{ a: 1 }]],
    ['[].isEmpty()', true],
    ['[0].isNotEmpty()', true],
    ["[{ a: 1, b: 2 }, { a: 3 }].pluck('a')", [1, 3]],
    ["[{ a: 1, b: 2, c: 3 }].pluck('a', 'b')", [{ a: 1, b: 2 }]],
    ['[1, 2, 3, 4, 5].chunk(2)', [[1, 2], [3, 4], [5]]],
    ["[null, 1, '', 2, undefined].compact()", [1, 2]],
    ['[1, 2, 3].difference([2])', [1, 3]],
    ['[1, 2, 3].intersection([2, 3, 4])', [2, 3]],
    ['[1, 2].union([2, 3])', [1, 2, 3]],
    ['[1].append(2, 3)', [1, 2, 3]],
    ['[{ a: 1 }, { b: 2, a: 9 }].merge()', { a: 1, b: 2 }],
    ["[{ name: 'x', value: 1 }, { name: 'y', value: 2 }].smartJoin('name', 'value')", { x: 1, y: 2 }],
    ["[{ a: 1 }].renameKeys('a', 'b')", [{ b: 1 }]],
    ['[1, [2]].toJsonString()', '[1,[2]]'],
    ['[1, 2].includes(2)', true],
    ['[5, 6, 7].randomItem() >= 5', true],
  ])('%s', async (expr, expected) => {
    expect(await r(expr)).toEqual(expected);
  });

  it('refuses to sum what is not a number, numeric strings too (as n8n does)', async () => {
    await expect(r("[1, 'a'].sum()")).rejects.toThrow('sum(): all array elements must be numbers');
    await expect(r("['1', 2].sum()")).rejects.toThrow('sum(): all array elements must be numbers');
    await expect(r("['1', 5].max()")).rejects.toThrow('max(): all array elements must be numbers');
  });
});

describe('object extensions', () => {
  it.each([
    ['({}).isEmpty()', true],
    ['({ a: 1 }).isNotEmpty()', true],
    ["({ a: 1 }).hasField('a')", true],
    ["({ a: 1 }).hasField('toString')", false],
    ["({ a: 1, b: 2 }).removeField('a')", { b: 2 }],
    ["({ a: 'xay', b: 'c', n: 1 }).removeFieldsContaining('a')", { b: 'c', n: 1 }],
    ["({ a: 'xay', b: 'c' }).keepFieldsContaining('a')", { a: 'xay' }],
    ["({ a: null, b: '', c: 0, d: { e: null, f: 1 } }).compact()", { c: 0, d: { f: 1 } }],
    ['({ a: 1, b: 2 }).keys()', ['a', 'b']],
    ['({ a: 1, b: 2 }).values()', [1, 2]],
    ['({ a: 1 }).merge({ a: 2, b: 3 })', { a: 1, b: 3 }],
    ['({ a: [1] }).toJsonString()', '{"a":[1]}'],
    ["({ a: 1, b: 'x y' }).urlEncode()", 'a=1&b=x%20y'],
  ])('%s', async (expr, expected) => {
    expect(await r(expr)).toEqual(expected);
  });

  it('an own field of the same name wins over the extension', async () => {
    expect(await r('({ keys: 5 }).keys')).toBe(5);
    const d = makeData({ input: items({ isEmpty: 'own' }) });
    expect(await ex.resolve('={{ $json.isEmpty }}', d)).toBe('own');
  });

  it('extension methods do not show up in the data', async () => {
    expect(await r('Object.keys({ a: 1 })')).toEqual(['a']);
    expect(await r('JSON.stringify([1])')).toBe('[1]');
    expect(await r('(() => { const k = []; for (const x in { a: 1 }) k.push(x); return k; })()')).toEqual(['a']);
  });
});

describe('date extensions and Luxon', () => {
  // $now is 2026-11-25T21:46:23.460Z, a Wednesday.
  it.each([
    ["$now.plus(1, 'day').toISO()", '2026-11-26T21:46:23.460Z'],
    ["$now.plus(2, 'hours').toISO()", '2026-11-25T23:46:23.460Z'],
    ['$now.plus({ weeks: 1 }).toISO()', '2026-12-02T21:46:23.460Z'],
    ["$now.minus(1, 'month').toISO()", '2026-10-25T21:46:23.460Z'],
    ["$now.format('yyyy-MM-dd HH:mm')", '2026-11-25 21:46'],
    ["$now.beginningOf('month').toISO()", '2026-11-01T00:00:00.000Z'],
    ['$now.endOfMonth().toISO()', '2026-11-30T23:59:59.999Z'],
    ['$now.isWeekend()', false],
    ["$now.extract('year')", 2026],
    ["$now.extract('month')", 11],
    ['$now.extract()', 48],
    ["$now.diffTo('2026-11-20T21:46:23.460Z', 'days')", 5],
    ["$now.isBetween('2026-01-01', '2027-01-01')", true],
    ["$now.isInLast(1, 'hour')", true],
    ['$now.isDst()', false],
    ["$today.plus(1, 'days').format('cccc d LLLL')", 'Thursday 26 November'],
    ["DateTime.fromISO('2026-03-29T12:00:00', { zone: 'Europe/Berlin' }).offset", 120],
    [
      "DateTime.fromISO('2026-03-29T12:00:00Z').setZone('America/New_York').toFormat('yyyy-MM-dd HH:mm ZZZZ')",
      '2026-03-29 08:00 EDT',
    ],
    ["Duration.fromObject({ hours: 2 }).as('minutes')", 120],
    ["Interval.fromDateTimes($today, $now).length('hours').toFixed(2)", '21.77'],
    ["$now.setLocale('fr').toFormat('cccc d MMMM')", 'mercredi 25 novembre'],
    ["$now.toRelative({ base: $now.plus(2, 'days') })", '2 days ago'],
    ["new Date('2026-01-05T00:00:00Z').format('yyyy/MM/dd')", '2026/01/05'],
    ["new Date('2026-01-05T00:00:00Z').toDateTime().plus(1, 'day').toISODate()", '2026-01-06'],
  ])('%s', async (expr, expected) => {
    expect(await r(expr)).toEqual(expected);
  });

  it('a DateTime leaves the sandbox as ISO text, inside objects too', async () => {
    expect(await r('{ at: $now, list: [$today] }')).toEqual({
      at: '2026-11-25T21:46:23.460Z',
      list: ['2026-11-25T00:00:00.000Z'],
    });
  });

  it('Date and Date.now() follow the injected clock', async () => {
    const earlier = makeData({ now: new Date('2020-02-02T02:02:02.000Z') });
    expect(await r('new Date().toISOString().slice(0, 10)', earlier)).toBe('2020-02-02');
    expect(await r('Math.floor(Date.now() / 1000)', earlier)).toBe(
      Math.floor(Date.parse('2020-02-02T02:02:02.000Z') / 1000),
    );
    expect(await r('DateTime.now().year', earlier)).toBe(2020);
  });

  it('falls back to UTC when the workflow names a zone that does not exist', async () => {
    expect(await r('$now.toISO()', makeData({ timezone: 'Mars/Olympus_Mons' }))).toBe('2026-11-25T21:46:23.460Z');
  });

  it("refers to the workflow's zone for $today", async () => {
    const tokyo = makeData({ timezone: 'Asia/Tokyo' });
    expect(await r('$today.toISO()', tokyo)).toBe('2026-11-26T00:00:00.000+09:00');
    expect(await r("$now.toFormat('HH:mm')", tokyo)).toBe('06:46');
  });
});

describe('$jmespath', () => {
  it('searches with JMESPath', async () => {
    const d = makeData({
      input: items({
        people: [
          { name: 'a', age: 30 },
          { name: 'b', age: 20 },
        ],
      }),
    });
    expect(await ex.resolve("={{ $jmespath($json, 'people[?age > `25`].name') }}", d)).toEqual(['a']);
    expect(await ex.resolve("={{ $jmespath($json.people, '[*].age') }}", d)).toEqual([30, 20]);
  });
});

describe('calling an extension method on a missing value', () => {
  it('fails as n8n does, while a native method on a missing value just gives nothing', async () => {
    await expect(r('$json.nothing.isEmpty()')).rejects.toThrow('isEmpty() could not be called on "undefined" type');
    await expect(r('$json.nothing.toDateTime()')).rejects.toThrow(ExpressionError);
    expect(await r('$json.nothing.toUpperCase()')).toBeUndefined();
  });
});
