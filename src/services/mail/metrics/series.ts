// Time buckets for the metrics routes: counts of events per bucket, and cumulative usage at
// the end of each bucket.

export interface Window {
  /** Epoch ms of the first bucket's start. */
  start: number;
  end: number;
  periodMs: number;
  /** Most buckets answered; newest first when descending. */
  limit: number;
  descending: boolean;
}

function bucketStarts(w: Window): number[] {
  const out: number[] = [];
  for (let t = w.start; t < w.end && out.length < 10_000; t += w.periodMs) out.push(t);
  return w.descending ? out.reverse().slice(0, w.limit) : out.slice(0, w.limit);
}

/** Every bucket of the window with the number of `times` in it (empty buckets count 0). */
export function countBuckets(times: string[], w: Window): Array<{ timestamp: string; count: number }> {
  const counts = new Map<number, number>();
  for (const t of times) {
    const ms = Date.parse(t);
    if (ms < w.start || ms >= w.end) continue;
    const bucket = w.start + Math.floor((ms - w.start) / w.periodMs) * w.periodMs;
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return bucketStarts(w).map((b) => ({ timestamp: new Date(b).toISOString(), count: counts.get(b) ?? 0 }));
}

/** At the end of each bucket, the running total of `items` (each with a time and a weight) up to then. */
export function cumulativePoints(
  items: Array<{ time: string; value: number }>,
  w: Window,
): Array<{ timestamp: string; value: number }> {
  const sorted = items.map((i) => ({ ms: Date.parse(i.time), value: i.value })).sort((a, b) => a.ms - b.ms);
  return bucketStarts(w).map((b) => {
    const at = Math.min(b + w.periodMs, w.end);
    let value = 0;
    for (const i of sorted) {
      if (i.ms >= at) break;
      value += i.value;
    }
    return { timestamp: new Date(at).toISOString(), value };
  });
}
