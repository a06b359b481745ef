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
  const known = [...texts, 'start', 'end', 'url', 'geo', 'status', 'busyStatus', 'sequence', 'organizer', 'attendees'];
  const present = Object.entries(data).filter(([, v]) => v);
  for (const [key, value] of present) if (texts.includes(key)) typed(out, key, value, 'string');
  matching(out, 'url', data.url, URL_LIKE);
  matching(out, 'status', data.status, /TENTATIVE|CANCELLED|CONFIRMED/i);
  matching(out, 'busyStatus', data.busyStatus, /TENTATIVE|FREE|BUSY|OOF/i);
  if (data.sequence) typed(out, 'sequence', data.sequence, 'number');
  if (data.geo && typed(out, 'geo', data.geo, 'object'))
    for (const k of ['lat', 'lon']) {
      const x = (data.geo as Record<string, unknown>)[k];
      if (x !== undefined) typed(out, `geo.${k}`, x, 'number');
    }
  if (data.organizer) contact(out, 'organizer', data.organizer, ['name', 'email', 'dir']);
  if (data.attendees && typed(out, 'attendees', data.attendees, 'array'))
    (data.attendees as unknown[]).forEach((a, i) =>
      contact(out, `attendees[${i}]`, a, ['name', 'email', 'rsvp', 'dir', 'partstat', 'role']),
    );
  const unknown = present.map(([k]) => k).filter((k) => !known.includes(k));
  if (unknown.length) out.push(`this field has unspecified keys: ${unknown.join(', ')}`);
  return out;
}

/** The error n8n's ics reports for the problems (its message when the node continues on fail). */
export function eventError(problems: string[]): string {
  return problems.length === 1 ? problems[0] : `${problems.length} errors occurred`;
}

/** The problems of a date ics is given that n8n could not read: each part is NaN. */
export function dateProblems(key: string, parts: number): string[] {
  return Array.from(
    { length: parts },
    (_, i) => `${key}[${i}] must be a \`number\` type, but the final value was: \`NaN\` (cast from the value \`NaN\`).`,
  );
}

/** A value as the checks print it: text quoted, objects as indented JSON of printed values. */
function printed(v: unknown): string {
  const simple = (x: unknown, quote: boolean): string | undefined => {
    if (x === null || x === undefined || typeof x === 'boolean') return String(x);
    if (typeof x === 'number') return Object.is(x, -0) ? '-0' : String(x);
    if (typeof x === 'string') return quote ? `"${x}"` : x;
    if (x instanceof Date) return Number.isNaN(x.getTime()) ? 'Invalid Date' : x.toISOString();
    return undefined;
  };
  const flat = simple(v, true);
  if (flat !== undefined) return flat;
  return JSON.stringify(
    v,
    function (this: Record<string, unknown>, key: string, value: unknown) {
      return simple(this[key], true) ?? value;
    },
    2,
  );
}

function typed(out: string[], path: string, v: unknown, type: 'string' | 'number' | 'boolean' | 'object' | 'array') {
  const ok =
    type === 'array'
      ? Array.isArray(v)
      : type === 'object'
        ? typeof v === 'object' && v !== null && !Array.isArray(v)
        : type === 'number'
          ? typeof v === 'number' && !Number.isNaN(v)
          : typeof v === type;
  if (!ok) out.push(`${path} must be a \`${type}\` type, but the final value was: \`${printed(v)}\`.`);
  return ok;
}

function matching(out: string[], path: string, v: unknown, re: RegExp) {
  if (v && typed(out, path, v, 'string') && !re.test(v as string))
    out.push(`${path} must match the following: "${String(re)}"`);
}

function contact(out: string[], path: string, v: unknown, keys: string[]) {
  if (v === undefined || !typed(out, path, v, 'object')) return;
  const c = v as Record<string, unknown>;
  for (const k of keys) {
    const x = c[k];
    if (x === undefined) continue;
    if (!typed(out, `${path}.${k}`, x, k === 'rsvp' ? 'boolean' : 'string')) continue;
    if (k === 'email' && x !== '' && !EMAIL.test(x as string)) out.push(`${path}.email must be a valid email`);
    if (path !== 'organizer' && k === 'dir') matching(out, `${path}.dir`, x, URL_LIKE);
  }
  const unknown = Object.keys(c).filter((k) => !keys.includes(k));
  if (unknown.length) out.push(`${path} field has unspecified keys: ${unknown.join(', ')}`);
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
