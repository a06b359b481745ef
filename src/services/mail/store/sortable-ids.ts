// Ids that sort by time: message rows and inbox events are listed in the order they happened,
// a keyset cursor away from the next page.
import { randomUUID } from 'node:crypto';

let sequence = 0;

/**
 * An id that sorts by `ms`, then by arrival within this process (a stable order for equal
 * timestamps, as under a frozen clock); the random tail keeps ids unique across instances.
 * (ulid draws 16 random bytes one by one per id, which showed up in the ingest profile.)
 */
export function sortableId(ms: number): string {
  sequence = (sequence + 1) % 1_679_616; // 36^4
  return ms.toString(36).padStart(9, '0') + sequence.toString(36).padStart(4, '0') + randomUUID().slice(0, 8);
}
