// Number and boolean extension methods.
// Runs in a block of its own inside the extensions script (../../sandbox/guest-scripts.ts),
// after helpers.js.

const N = Number.prototype;
const B = Boolean.prototype;
function integerOnly(method, n) {
  if (!Number.isInteger(n)) fail(method, 'only callable on integers');
}
define(N, 'abs', function abs() {
  return Math.abs(this);
});
define(N, 'ceil', function ceil() {
  return Math.ceil(this);
});
define(N, 'floor', function floor() {
  return Math.floor(this);
});
define(N, 'round', function round(decimalPlaces) {
  const places = decimalPlaces === undefined ? 0 : Number(decimalPlaces);
  const factor = Math.pow(10, places);
  return Math.round(Number(this) * factor) / factor;
});
define(N, 'isEven', function isEven() {
  const n = Number(this);
  integerOnly('isEven', n);
  return n % 2 === 0;
});
define(N, 'isOdd', function isOdd() {
  const n = Number(this);
  integerOnly('isOdd', n);
  return Math.abs(n % 2) === 1;
});
define(N, 'isInteger', function isInteger() {
  return Number.isInteger(Number(this));
});
define(N, 'isEmpty', function isEmpty() {
  return false;
});
define(N, 'isNotEmpty', function isNotEmpty() {
  return true;
});
define(N, 'toBoolean', function toBoolean() {
  return Number(this) !== 0;
});
define(N, 'format', function format(locales, options) {
  return new Intl.NumberFormat(locales === undefined ? 'en-US' : locales, options).format(Number(this));
});
define(N, 'toDateTime', function toDateTime(format) {
  const { DateTime } = H.lux();
  const n = Number(this);
  switch (format === undefined ? 'ms' : format) {
    case 'ms':
      return DateTime.fromMillis(n);
    case 's':
      return DateTime.fromSeconds(n);
    case 'us':
      return DateTime.fromMillis(n / 1000);
    case 'excel':
      return DateTime.fromMillis(Math.round((n - 25569) * 86400000), { zone: 'UTC' });
    default:
      fail('toDateTime', 'unknown format ' + String(format), "Use 'ms', 's', 'us' or 'excel'");
  }
});
define(N, 'toJsonString', function toJsonString() {
  return JSON.stringify(Number(this));
});

define(B, 'toNumber', function toNumber() {
  return this.valueOf() ? 1 : 0;
});
define(B, 'toBoolean', function toBoolean() {
  return this.valueOf();
});
define(B, 'isEmpty', function isEmpty() {
  return false;
});
define(B, 'isNotEmpty', function isNotEmpty() {
  return true;
});
define(B, 'toJsonString', function toJsonString() {
  return JSON.stringify(this.valueOf());
});
