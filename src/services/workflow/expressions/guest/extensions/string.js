// String extension methods (n8n's "strings" data transformation functions).
// Runs in a block of its own inside the extensions script (../../sandbox/guest-scripts.ts),
// after helpers.js.

const S = String.prototype;
const EMAIL =
  /[\w.!#$%&'*+/=?^\x60{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+/;
const URL_RE = /(?:https?|ftp):\/\/[^\s/$.?#"'<>]+\.[^\s"'<>]*/i;
const DOMAIN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

function urlParts(text) {
  const m = /^([a-z][a-z0-9+.-]*):\/\/(?:[^@/?#]*@)?([^/?#:]+)(?::\d+)?([^?#]*)/i.exec(text);
  return m ? { protocol: m[1].toLowerCase(), host: m[2].toLowerCase(), path: m[3] || '/' } : undefined;
}
function whole(re) {
  return new RegExp('^' + re.source + '$', re.flags);
}

define(S, 'isEmpty', function isEmpty() {
  return this.length === 0;
});
define(S, 'isNotEmpty', function isNotEmpty() {
  return this.length > 0;
});
define(S, 'isEmail', function isEmail() {
  return whole(EMAIL).test(this);
});
define(S, 'isDomain', function isDomain() {
  return DOMAIN.test(this);
});
define(S, 'isUrl', function isUrl() {
  const parts = urlParts(String(this));
  return !!parts && /^(https?|ftp)$/.test(parts.protocol) && parts.host.includes('.') && !/\s/.test(this);
});
define(S, 'isNumeric', function isNumeric() {
  const text = String(this).trim();
  return text !== '' && !isNaN(Number(text));
});
define(S, 'extractEmail', function extractEmail() {
  const m = EMAIL.exec(this);
  return m ? m[0] : undefined;
});
define(S, 'extractUrl', function extractUrl() {
  const m = URL_RE.exec(this);
  return m ? m[0] : undefined;
});
define(S, 'extractDomain', function extractDomain() {
  const text = String(this).trim();
  if (whole(EMAIL).test(text)) return text.split('@').pop().toLowerCase();
  const parts = urlParts(text);
  if (parts) return parts.host;
  const bare = /^([A-Za-z0-9.-]+\.[A-Za-z]{2,63})(?:[/:?#]|$)/.exec(text);
  return bare ? bare[1].toLowerCase() : undefined;
});
define(S, 'extractUrlPath', function extractUrlPath() {
  const parts = urlParts(String(this));
  return parts ? parts.path : undefined;
});
define(S, 'toNumber', function toNumber() {
  const text = String(this).trim();
  let n = text === '' ? NaN : Number(text);
  if (isNaN(n)) n = parseFloat(text);
  if (isNaN(n))
    fail(
      'toNumber',
      'cannot convert to number',
      "Only strings that start with a number can be converted, e.g. '12' or '3.5kg'",
    );
  return n;
});
define(S, 'toInt', function toInt() {
  const n = parseInt(String(this).replace(/,/g, ''), 10);
  if (isNaN(n)) fail('toInt', 'cannot convert to integer');
  return n;
});
define(S, 'toFloat', function toFloat() {
  const n = parseFloat(String(this).replace(/,/g, ''));
  if (isNaN(n)) fail('toFloat', 'cannot convert to float');
  return n;
});
define(S, 'toBoolean', function toBoolean() {
  const text = String(this).trim().toLowerCase();
  return !(
    text === '' ||
    text === 'false' ||
    text === 'no' ||
    text === '0' ||
    text === 'off' ||
    text === 'n' ||
    text === 'f'
  );
});
define(S, 'toDateTime', function toDateTime(format) {
  const { DateTime } = H.lux();
  const text = String(this);
  let dt;
  if (format !== undefined) dt = DateTime.fromFormat(text, String(format));
  else {
    // An offset in the text is kept, as n8n does ('…+05:00'.toDateTime().toString() keeps +05:00).
    for (const parse of [DateTime.fromISO, DateTime.fromHTTP, DateTime.fromRFC2822, DateTime.fromSQL]) {
      dt = parse.call(DateTime, text, { setZone: true });
      if (dt.isValid) break;
    }
    if (!dt.isValid) {
      const ms = Date.parse(text);
      if (!isNaN(ms)) dt = DateTime.fromMillis(ms);
    }
  }
  if (!dt.isValid)
    fail(
      'toDateTime',
      'cannot convert "' + text + '" to a date',
      'The string must be a date in ISO 8601, HTTP, RFC 2822 or SQL format, or match the format you give',
    );
  return dt;
});
// Title case as n8n documents it: each word's first letter capitalised, the rest left as
// is, short prepositions, articles and conjunctions kept small unless they start the text.
const SMALL_WORDS = new Set([
  'a',
  'an',
  'and',
  'as',
  'at',
  'because',
  'but',
  'by',
  'en',
  'for',
  'if',
  'in',
  'neither',
  'nor',
  'of',
  'on',
  'only',
  'or',
  'over',
  'per',
  'so',
  'some',
  'than',
  'that',
  'the',
  'to',
  'up',
  'upon',
  'v',
  'vs',
  'versus',
  'via',
  'when',
  'with',
  'without',
  'yet',
]);
define(S, 'toTitleCase', function toTitleCase() {
  let first = true;
  return String(this).replace(/[\p{L}\p{N}'’]+/gu, (word) => {
    const keep = (!first && SMALL_WORDS.has(word.toLowerCase())) || /\p{Lu}/u.test(word.slice(1)); // "iPhone" stays
    first = false;
    return keep ? word : word[0].toUpperCase() + word.slice(1);
  });
});
define(S, 'toSentenceCase', function toSentenceCase() {
  return String(this)
    .toLowerCase()
    .replace(/(^\s*|[.!?]\s+)(\p{L})/gu, (m, sep, ch) => sep + ch.toUpperCase());
});
define(S, 'toSnakeCase', function toSnakeCase() {
  return (
    String(this)
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      // One underscore per separator (observed: "BOB  smith-x" gives "bob__smith_x").
      .replace(/[^\p{L}\p{N}]/gu, '_')
      .replace(/^_+|_+$/g, '')
      .toLowerCase()
  );
});
// No toCamelCase: n8n 2.8.4 has none (observed: the call fails, so its segment yields nothing).
define(S, 'replaceSpecialChars', function replaceSpecialChars() {
  return String(this)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/æ/g, 'ae')
    .replace(/Æ/g, 'AE')
    .replace(/ø/g, 'o')
    .replace(/Ø/g, 'O')
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE');
});
define(S, 'removeTags', function removeTags() {
  return String(this).replace(/<[^>]*>?/gm, '');
});
define(S, 'removeMarkdown', function removeMarkdown() {
  return String(this)
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s*[-*+]\s+/gm, '')
    .replace(/^\s*>\s?/gm, '')
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/\x60{3}[^\n]*\n?/g, '')
    .replace(/\x60([^\x60]*)\x60/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/(\*|_)(.*?)\1/g, '$2')
    .replace(/~~(.*?)~~/g, '$1')
    .replace(/^-{3,}\s*$/gm, '');
});
define(S, 'quote', function quote(mark) {
  const q = mark === undefined ? '"' : String(mark);
  return (
    q +
    String(this)
      .split(q)
      .join('\\' + q) +
    q
  );
});
// By default every reserved character is encoded (observed: "a b&c" gives "a%20b%26c");
// `entireString` treats the text as a whole URL and keeps its structure (/ ? & …).
define(S, 'urlEncode', function urlEncode(entireString) {
  return entireString ? encodeURI(this) : encodeURIComponent(this);
});
define(S, 'urlDecode', function urlDecode(entireString) {
  return entireString ? decodeURI(this) : decodeURIComponent(this);
});
define(S, 'base64Encode', function base64Encode() {
  return codec('base64Encode', this);
});
define(S, 'base64Decode', function base64Decode() {
  return codec('base64Decode', this);
});
define(S, 'hash', function hash(algorithm) {
  return codec('hash', this, algorithm === undefined ? 'md5' : algorithm);
});
define(S, 'parseJson', function parseJson() {
  try {
    return JSON.parse(this);
  } catch (e) {
    fail('parseJson', "the string isn't valid JSON", String(e.message));
  }
});
define(S, 'toJsonString', function toJsonString() {
  return JSON.stringify(String(this));
});
