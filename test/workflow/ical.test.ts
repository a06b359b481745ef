// The iCalendar event Convert to File writes, as n8n 2.8.4's `ics` library (2.40) writes and
// checks it: dates as n8n reads them (moment on a UTC server), ics's strict checks, its line
// order and folding. Expected values were read from ics and moment in the oracle's install; the
// n8n answers themselves are the fz-convertToFile-* oracle cases.
import { describe, expect, test } from 'vitest';
import {
  dateProblems,
  eventError,
  eventProblems,
  readEventDate,
  writeEvent,
} from '../../src/services/workflow/nodes/ical.js';

const iso = (v: unknown) => readEventDate(v)?.toISO() ?? null;
const withoutClock = (t: string) => t.replace(/UID:[^\r]*\r\n/, '').replace(/DTSTAMP:[^\r]*\r\n/, '');

describe('event dates', () => {
  test.each([
    ['2024-03-10 12:30', '2024-03-10T12:30:00.000Z'],
    ['2024-03-10T12:30:00+02:00', '2024-03-10T10:30:00.000Z'],
    [' 2024-03-10', '2024-03-10T00:00:00.000Z'],
    ['2024-W10', '2024-03-04T00:00:00.000Z'],
    ['2024-070', '2024-03-10T00:00:00.000Z'],
    ['20240310', '2024-03-10T00:00:00.000Z'],
    ['Sun, 10 Mar 2024 12:30:00 GMT', '2024-03-10T12:30:00.000Z'],
    ['March 10, 2024', '2024-03-10T00:00:00.000Z'],
    ['10.03.2024', '2024-10-03T00:00:00.000Z'],
    ['2024-03-10 12:30 PM', '2024-03-10T12:30:00.000Z'],
    ['2024', '2024-01-01T00:00:00.000Z'],
    [1710073800000, '2024-03-10T12:30:00.000Z'],
  ])('%j is %s', (v, want) => expect(iso(v)).toBe(want));

  test.each(['2024-02-30', '2024-13-45', '2024-03-10T25:00', '1710073800000', 'not a date', '', null, {}])(
    '%j is no date',
    (v) => expect(iso(v)).toBeNull(),
  );
});

describe('ics checks', () => {
  test('text where text is due, numbers for the place, known keys only', () => {
    expect(eventProblems({ title: 'x', uid: 'a,b', status: 'confirmed', busyStatus: 'OOF', sequence: 2 })).toEqual([]);
    // Empty, 0, false and null values are dropped before the checks.
    expect(eventProblems({ title: '', description: 0, location: false, uid: null, fileName: '' })).toEqual([]);
    expect(eventProblems({ title: 7 })).toHaveLength(1);
    expect(eventProblems({ title: { a: 1 } })).toHaveLength(1);
    expect(eventProblems({ title: 'x', fileName: 'a.ics' })).toEqual(['this field has unspecified keys: fileName']);
    expect(eventProblems({ geo: { lat: 1.5, lon: 2 } })).toEqual([]);
    expect(eventProblems({ geo: { lat: '1.5', lon: '2' } })).toHaveLength(2);
    expect(eventProblems({ url: 'example.com' })).toHaveLength(1);
    expect(eventProblems({ url: 'https://example.com/a?b' })).toEqual([]);
    expect(eventProblems({ status: 'maybe' })).toHaveLength(1);
    expect(eventProblems({ organizer: { name: 'Ann', email: 'not an address' } })).toHaveLength(1);
    expect(eventProblems({ organizer: { name: 'Ann', email: '' } })).toEqual([]);
    expect(eventProblems({ organizer: { name: 'Ann', phone: '1' } })).toHaveLength(1);
    expect(eventProblems({ attendees: [{ name: 'Bo', email: 'bo@x.io', rsvp: true }, { rsvp: 'yes' }] })).toHaveLength(
      1,
    );
  });

  test("messages as ics words them (an item's error when the node continues on fail)", () => {
    expect(eventError(eventProblems({ title: 7 }))).toBe(
      'title must be a `string` type, but the final value was: `7`.',
    );
    expect(eventError(eventProblems({ title: { a: 1, b: 'x' } }))).toBe(
      'title must be a `string` type, but the final value was: `{\n  "a": "1",\n  "b": "\\"x\\""\n}`.',
    );
    expect(eventError(eventProblems({ geo: { lat: '1', lon: 2 } }))).toBe(
      'geo.lat must be a `number` type, but the final value was: `"1"`.',
    );
    expect(eventError(eventProblems({ status: 'maybe' }))).toBe(
      'status must match the following: "/TENTATIVE|CANCELLED|CONFIRMED/i"',
    );
    expect(eventError(eventProblems({ organizer: { email: 'nope' } }))).toBe('organizer.email must be a valid email');
    expect(eventError(eventProblems({ title: 'x', fileName: 'a', calName: 5 }))).toBe('2 errors occurred');
    expect(eventError(dateProblems('start', 3))).toBe('3 errors occurred');
    expect(dateProblems('end', 1)).toEqual([
      'end[0] must be a `number` type, but the final value was: `NaN` (cast from the value `NaN`).',
    ]);
  });

  test('hostile: long near-miss addresses and links are refused without backtracking blow-ups', () => {
    const long = 'a.'.repeat(100_000);
    expect(eventProblems({ organizer: { email: `a@${long} ` } })).toHaveLength(1);
    expect(eventProblems({ url: `https://x${'/'.repeat(100_000)} ` })).toHaveLength(1);
    expect(iso(`2024-03-10${' '.repeat(100_000)}x`)).toBeNull();
  });
});

describe('the written event', () => {
  const at = (s: string) => readEventDate(s)!;
  test('every property in ics order, long lines folded', () => {
    const text = writeEvent({
      title: '',
      start: at('2024-03-10T12:30:00+02:00'),
      end: at('2024-03-10T14:00:00Z'),
      allDay: false,
      now: new Date(),
      fields: {
        description: 'x'.repeat(80),
        calName: 'Home',
        sequence: 3,
        status: 'TENTATIVE',
        busyStatus: 'BUSY',
        url: 'https://example.com/a',
        location: 'Room, 1',
        recurrenceRule: 'FREQ=DAILY',
        geo: { lat: 1.5, lon: 2 },
        organizer: { name: 'Ann', email: 'ann@example.com' },
        attendees: [{ name: 'Bo', email: 'bo@x.io', rsvp: true }, { email: 'c@x.io' }],
      },
    });
    expect(withoutClock(text)).toBe(
      [
        'BEGIN:VCALENDAR',
        'VERSION:2.0',
        'CALSCALE:GREGORIAN',
        'PRODID:adamgibbons/ics',
        'METHOD:PUBLISH',
        'X-WR-CALNAME:Home',
        'X-PUBLISHED-TTL:PT1H',
        'BEGIN:VEVENT',
        'SUMMARY:undefined',
        'DTSTART:20240310T103000Z',
        'DTEND:20240310T140000Z',
        'SEQUENCE:3',
        `DESCRIPTION:${'x'.repeat(63)}\r\n\t${'x'.repeat(17)}`,
        'URL:https://example.com/a',
        'GEO:1.5;2',
        'LOCATION:Room\\, 1',
        'STATUS:TENTATIVE',
        'ORGANIZER;CN=Ann:mailto:ann@example.com',
        'X-MICROSOFT-CDO-BUSYSTATUS:BUSY',
        'ATTENDEE;RSVP=TRUE;CN=Bo:mailto:bo@x.io',
        'ATTENDEE;RSVP=FALSE;CN=Unnamed attendee:mailto:c@x.io',
        'RRULE:FREQ=DAILY',
        'END:VEVENT',
        'END:VCALENDAR',
        '',
      ].join('\r\n'),
    );
    expect(text).toMatch(/^UID:[A-Za-z0-9_-]{21}\r$/m);
  });

  test('an all-day event ends the day after; one ending where it starts has no end', () => {
    const two = writeEvent({
      title: 'T',
      start: at('2024-03-10'),
      end: at('2024-03-12'),
      allDay: true,
      now: new Date(),
      fields: {},
    });
    expect(two).toContain('DTSTART;VALUE=DATE:20240310\r\nDTEND;VALUE=DATE:20240312\r\n');
    const one = writeEvent({
      title: 'T',
      start: at('2024-03-10'),
      end: at('2024-03-10'),
      allDay: true,
      now: new Date(),
      fields: {},
    });
    expect(one).toContain('DTSTART;VALUE=DATE:20240310\r\nEND:VEVENT');
  });

  test('hostile: a 2 MB title is folded into lines of at most 75 characters', () => {
    const text = writeEvent({
      title: 'é'.repeat(2_000_000),
      start: at('2024-03-10'),
      end: at('2024-03-11'),
      allDay: false,
      now: new Date(),
      fields: {},
    });
    const lines = text.split('\r\n');
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(75);
    expect(lines.filter((l) => l.startsWith('\t')).length).toBe(Math.ceil((2_000_008 - 75) / 74));
  });
});
