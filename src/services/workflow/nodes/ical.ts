// iCalendar files for Convert to File (one event, written as n8n's `ics` library writes it) and
// Extract from File (events read into the shape n8n 2.8.4 gives: {version, prodId, method,
// events: [{uid, summary, stamp, start, end, …}]}, dates as {date, type}). Recorded with the
// oracle (nt-files-ical).
import { randomBytes } from 'node:crypto';
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

/** ics's line folding: 75 characters, then 74 per continuation line (which starts with a tab). */
function fold(line: string): string {
  if (line.length <= 75) return line;
  const parts = [line.slice(0, 75)];
  for (let at = 75; at < line.length; at += 74) parts.push(line.slice(at, at + 74));
  return parts.join('\r\n\t');
}

/** An id shaped as ics's (nanoid: 21 characters of A–Z, a–z, 0–9, _ and -). */
function eventId(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';
  return [...randomBytes(21)].map((b) => alphabet[b & 63]).join('');
}

/**
 * The calendar text, in ics's order and folding (an all-day event's end is exclusive, the day
 * after its last day; one ending the day it starts has no end). `fields` are the event's other
 * properties as eventProblems checked them (geo, organizer, attendees under ics's names).
 */
export function writeEvent(e: EventInput): string {
  const f = e.fields;
  const line = (name: string, v: unknown, format = (x: unknown) => String(x)) =>
    v ? [fold(`${name}:${format(v)}`)] : [];
  const person = (p: Record<string, unknown>, fallback: string) =>
    `CN=${String(p.name || fallback)}${p.email ? `:mailto:${String(p.email)}` : ''}`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'CALSCALE:GREGORIAN',
    'PRODID:adamgibbons/ics',
    'METHOD:PUBLISH',
    ...line('X-WR-CALNAME', f.calName),
    'X-PUBLISHED-TTL:PT1H',
    'BEGIN:VEVENT',
    `UID:${typeof f.uid === 'string' && f.uid ? f.uid : eventId()}`,
    // (ics writes a missing title as the word "undefined".)
    fold(`SUMMARY:${e.title ? text(e.title) : 'undefined'}`),
    `DTSTAMP:${stamp(DateTime.fromJSDate(e.now))}`,
  ];
  if (e.allDay) {
    lines.push(`DTSTART;VALUE=DATE:${day(e.start)}`);
    if (day(e.end) !== day(e.start)) lines.push(`DTEND;VALUE=DATE:${day(e.end)}`);
  } else lines.push(`DTSTART:${stamp(e.start)}`, `DTEND:${stamp(e.end)}`);
  if (f.sequence) lines.push(`SEQUENCE:${String(f.sequence)}`);
  lines.push(...line('DESCRIPTION', f.description, text), ...line('URL', f.url));
  const geo = f.geo as Record<string, unknown> | undefined;
  if (geo) lines.push(fold(`GEO:${String(geo.lat)};${String(geo.lon)}`));
  lines.push(...line('LOCATION', f.location, text), ...line('STATUS', f.status));
  const organizer = f.organizer as Record<string, unknown> | undefined;
  if (organizer)
    lines.push(
      fold(`ORGANIZER;${organizer.dir ? `DIR="${String(organizer.dir)}";` : ''}${person(organizer, 'Organizer')}`),
    );
  lines.push(...line('X-MICROSOFT-CDO-BUSYSTATUS', f.busyStatus));
  for (const a of (f.attendees as Array<Record<string, unknown>> | undefined) ?? []) {
    const params = [
      a.rsvp ? 'RSVP=TRUE;' : 'RSVP=FALSE;',
      a.role ? `ROLE=${String(a.role)};` : '',
      a.partstat ? `PARTSTAT=${String(a.partstat)};` : '',
      a.dir ? `DIR=${String(a.dir)};` : '',
    ].join('');
    lines.push(fold(`ATTENDEE;${params}${person(a, 'Unnamed attendee')}`));
  }
  if (f.recurrenceRule) lines.push(`RRULE:${String(f.recurrenceRule)}`);
  lines.push('END:VEVENT', 'END:VCALENDAR');
  return lines.join('\r\n') + '\r\n';
}

// A text shaped as ISO 8601 is read as one or not at all (2024-02-30 is no date, not 1 March).
const ISO_SHAPED =
  /^(?:[+-]\d{6}|\d{4})-?(?:\d\d-?\d\d|W\d\d-?\d?|\d{3}|\d\d)(?:[T ]\d\d(?::?\d\d(?::?\d\d(?:[.,]\d+)?)?)?(?:[+-]\d\d(?::?\d\d)?|\s*Z)?)?$/;

/**
 * A date as n8n 2.8.4's iCalendar event reads it (moment on a server in UTC): ISO 8601 (a space
 * may stand for the T; week and ordinal dates too), else RFC 2822, else the JavaScript Date
 * parser, a date without a zone being UTC; a number is epoch milliseconds; anything else (an
 * empty text, null, an object) is no date.
 */
export function readEventDate(v: unknown): DateTime | undefined {
  let d: DateTime | undefined;
  if (v instanceof Date) d = DateTime.fromJSDate(v, { zone: 'UTC' });
  else if (typeof v === 'number') d = DateTime.fromMillis(v, { zone: 'UTC' });
  else if (v === undefined) d = DateTime.utc();
  else if (typeof v === 'string' && v.trim() !== '') {
    const s = v.replace(/^\s+/, '');
    d = DateTime.fromISO(s.replace(/^([^ T]+) (?=\d)/, '$1T'), { zone: 'UTC' });
    if (!d.isValid && !ISO_SHAPED.test(s)) {
      d = DateTime.fromRFC2822(s, { zone: 'UTC' });
      if (!d.isValid) {
        const js = new Date(s);
        if (!Number.isNaN(js.getTime())) {
          const zoned = /(?:Z|GMT|UTC|[+-]\d\d:?\d\d)\b/i.test(s);
          d = zoned
            ? DateTime.fromJSDate(js, { zone: 'UTC' })
            : DateTime.utc(
                js.getFullYear(),
                js.getMonth() + 1,
                js.getDate(),
                js.getHours(),
                js.getMinutes(),
                js.getSeconds(),
              );
        }
      }
    }
  }
  return d?.isValid ? d.toUTC() : undefined;
}

const isText = (v: unknown) => typeof v === 'string';
// (Both written so that no text makes them backtrack: each part's characters exclude the next's.)
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;
const URL_LIKE = /^[a-z0-9+.-]+:\/\/[^\s/?#]\S*$/i;

/**
 * The checks n8n's `ics` library makes of an event before writing it (strict types: no text
 * is read as a number, nor a number as text). A value that is empty, 0, false or null is dropped
 * first and checks nothing; the node's file name option is not an event property, so a file
 * name given fails. Returns the problems found, none when the event can be written.
 */
export function eventProblems(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  const texts = ['title', 'uid', 'description', 'location', 'calName', 'recurrenceRule'];
  const known = new Set([
    ...texts,
    'start',
    'end',
    'url',
    'geo',
    'status',
    'busyStatus',
    'sequence',
    'organizer',
    'attendees',
  ]);
  for (const [key, value] of Object.entries(data)) {
    if (!value) continue;
    if (!known.has(key)) out.push(`this field has unspecified keys: ${key}`);
    else if (texts.includes(key) && !isText(value)) out.push(`${key} must be a \`string\` type`);
  }
  const textMatching = (key: string, re: RegExp) => {
    const v = data[key];
    if (!v) return;
    if (!isText(v)) out.push(`${key} must be a \`string\` type`);
    else if (!re.test(v)) out.push(`${key} must match the following: ${String(re)}`);
  };
  textMatching('url', URL_LIKE);
  textMatching('status', /TENTATIVE|CANCELLED|CONFIRMED/i);
  textMatching('busyStatus', /TENTATIVE|FREE|BUSY|OOF/i);
  if (data.sequence && typeof data.sequence !== 'number') out.push('sequence must be a `number` type');
  const object = (key: string, v: unknown) => {
    if (v === undefined) return false;
    if (!v || typeof v !== 'object' || Array.isArray(v)) {
      out.push(`${key} must be a \`object\` type`);
      return false;
    }
    return true;
  };
  const contact = (key: string, v: unknown, fields: Record<string, (x: unknown) => boolean>) => {
    if (!object(key, v)) return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!(k in fields)) out.push(`${key} field has unspecified keys: ${k}`);
      else if (x !== undefined && !fields[k](x)) out.push(`${key}.${k} is not valid`);
    }
  };
  const email = (x: unknown) => isText(x) && (x === '' || EMAIL.test(x));
  if (data.geo) {
    if (object('geo', data.geo))
      for (const k of ['lat', 'lon']) {
        const x = (data.geo as Record<string, unknown>)[k];
        if (x !== undefined && (typeof x !== 'number' || Number.isNaN(x)))
          out.push(`geo.${k} must be a \`number\` type`);
      }
  }
  if (data.organizer) contact('organizer', data.organizer, { name: isText, email, dir: isText });
  if (data.attendees) {
    if (!Array.isArray(data.attendees)) out.push('attendees must be a `array` type');
    else
      data.attendees.forEach((a, i) =>
        contact(`attendees[${i}]`, a, {
          name: isText,
          email,
          rsvp: (x) => typeof x === 'boolean',
          dir: (x) => isText(x) && URL_LIKE.test(x),
          partstat: isText,
          role: isText,
        }),
      );
  }
  return out;
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
