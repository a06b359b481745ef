// JS Dates get the DateTime methods by way of a DateTime. Installed with the other extensions
// (before the built-ins are frozen), in a block of its own; Luxon loads on the first call.

const D = Date.prototype;
for (const name of [
  'format',
  'plus',
  'minus',
  'beginningOf',
  'endOfMonth',
  'isDst',
  'isWeekend',
  'isBetween',
  'isInLast',
  'extract',
  'diffTo',
  'diffToNow',
]) {
  define(D, name, function () {
    const DT = H.lux().DateTime;
    return DT.prototype[name].apply(DT.fromJSDate(this), arguments);
  });
}
define(D, 'toDateTime', function toDateTime() {
  return H.lux().DateTime.fromJSDate(this);
});
define(
  D,
  'isEmpty',
  function isEmpty() {
    return false;
  },
  true,
);
define(
  D,
  'isNotEmpty',
  function isNotEmpty() {
    return true;
  },
  true,
);
