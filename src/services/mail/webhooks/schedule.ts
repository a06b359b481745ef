// The webhook retry schedule, apart from the delivery (deliver.ts) so that reading the mail's
// settings loads neither the HTTP client nor the signing library.

/** Svix's schedule after each failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const SVIX_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

/** Parses "5s,5m,30m" into milliseconds; undefined when malformed. */
export function parseSchedule(text: string, parse: (s: string) => number | undefined): number[] | undefined {
  const parts = text.split(',').map((s) => parse(s.trim()));
  return parts.length && parts.every((n) => n !== undefined && n >= 0) ? (parts as number[]) : undefined;
}
