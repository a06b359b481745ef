// iCalendar files for Convert to File (one event, written as n8n's `ics` library writes it) and
// Extract from File (events read into the shape n8n 2.8.4 gives: {version, prodId, method,
// events: [{uid, summary, stamp, start, end, …}]}, dates as {date, type}). Recorded with the
// oracle (nt-files-ical).
import { randomUUID } from 'node:crypto';
import { DateTime } from 'luxon';

export interface EventInput {
  title: unknown;
  start: DateTime;
  end: DateTime;
  allDay: boolean;
  now: Date;
  fields: Record<string, unknown>;
}

const stamp = (d: DateTime) => d.toUTC().toFormat("yyyyMMdd'T'HHmmss'Z'");
const day = (d: DateTime) => d.toFormat('yyyyMMdd');
/** Text values escaped as RFC 5545 wants (backslash, comma, semicolon, line breaks). */
const text = (v: unknown) =>
  String(v).replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** The calendar text; an all-day event ends the day after its end date (its end is exclusive). */
export function writeEvent(e: EventInput): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'PRODID:adamgibbons/ics',
    'METHOD:PUBLISH',
    'X-PUBLISHED-TTL:PT1H',
    'BEGIN:VEVENT',
  ];
  lines.push(
    `UID:${typeof e.fields.uid === 'string' ? e.fields.uid : randomUUID()}`,
    `SUMMARY:${text(e.title)}`,
    `DTSTAMP:${stamp(DateTime.fromJSDate(e.now))}`,
  );
  if (e.allDay) lines.push(`DTSTART;VALUE=DATE:${day(e.start)}`, `DTEND;VALUE=DATE:${day(e.end.plus({ days: 1 }))}`);
  else lines.push(`DTSTART:${stamp(e.start)}`, `DTEND:${stamp(e.end)}`);
  for (const [key, name] of [
    ['description', 'DESCRIPTION'],
    ['location', 'LOCATION'],
    ['url', 'URL'],
  ] as const) {
    if (e.fields[key] !== undefined && e.fields[key] !== '')
      lines.push(`${name}:${key === 'url' ? String(e.fields[key]) : text(e.fields[key])}`);
  }
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

/** Content lines with their folds undone: [name, params, value]. */
function contentLines(source: string): Array<[string, Record<string, string>, string]> {
  const unfolded = source.replace(/\r?\n[ \t]/g, '').split(/\r?\n/);
  return unfolded.flatMap((line) => {
    const colon = line.indexOf(':');
    if (colon < 0) return [];
    const [name = '', ...params] = line.slice(0, colon).split(';');
    return [
      [
        name.toUpperCase(),
        Object.fromEntries(params.map((p) => p.split('=', 2) as [string, string])),
        line.slice(colon + 1),
      ],
    ];
  });
}

const unescape = (v: string) => v.replace(/\\n/gi, '\n').replace(/\\([,;\\])/g, '$1');

function dateValue(value: string, params: Record<string, string>): { date: string | null; type: string } {
  if (params.VALUE === 'DATE' || /^\d{8}$/.test(value)) {
    const d = DateTime.fromFormat(value, 'yyyyMMdd', { zone: 'UTC' });
    return { date: d.isValid ? d.toISO() : null, type: 'DATE' };
  }
  const zone = value.endsWith('Z') ? 'UTC' : (params.TZID ?? 'UTC');
  const d = DateTime.fromFormat(value.replace(/Z$/, ''), "yyyyMMdd'T'HHmmss", { zone });
  return { date: d.isValid ? d.toUTC().toISO() : null, type: 'DATE-TIME' };
}

const EVENT_TEXT: Record<string, string> = {
  UID: 'uid',
  SUMMARY: 'summary',
  DESCRIPTION: 'description',
  LOCATION: 'location',
  URL: 'url',
  STATUS: 'status',
};
const EVENT_DATES: Record<string, string> = {
  DTSTAMP: 'stamp',
  DTSTART: 'start',
  DTEND: 'end',
  CREATED: 'created',
  'LAST-MODIFIED': 'lastModified',
};

export function readCalendar(source: string): Record<string, unknown> {
  const calendar: Record<string, unknown> = {};
  const events: Array<Record<string, unknown>> = [];
  let event: Record<string, unknown> | undefined;
  for (const [name, params, value] of contentLines(source)) {
    if (name === 'BEGIN' && value.toUpperCase() === 'VEVENT') event = {};
    else if (name === 'END' && value.toUpperCase() === 'VEVENT' && event) {
      events.push(event);
      event = undefined;
    } else if (event && EVENT_TEXT[name]) event[EVENT_TEXT[name]] = unescape(value);
    else if (event && EVENT_DATES[name]) event[EVENT_DATES[name]] = dateValue(value, params);
    else if (!event && name === 'VERSION') calendar.version = value;
    else if (!event && name === 'PRODID') calendar.prodId = value;
    else if (!event && name === 'METHOD') calendar.method = value;
  }
  return { ...calendar, events };
}
