// HA contexts: who or what caused a change. Ids are ULIDs (time-sortable), stamped from the
// injectable clock so tests under a manual clock still get ids in time order.
import { monotonicFactory } from 'ulid';
import type { Clock } from '../../../platform/clock.js';

export interface Context {
  id: string;
  parent_id: string | null;
  user_id: string | null;
}

const nextUlid = monotonicFactory();

export function newContext(
  clock: Pick<Clock, 'ms'>,
  userId: string | null = null,
  parentId: string | null = null,
): Context {
  return { id: nextUlid(clock.ms()), parent_id: parentId, user_id: userId };
}

/** HA user ids are 32 hex characters; a key's UUID without its dashes is one. */
export const userIdOf = (keyId: string): string => keyId.replace(/-/g, '').toLowerCase();

/** The key id behind a user id made by userIdOf (for the trace, which names keys by id); null for other users. */
export const keyIdOfUser = (userId: string | null): string | null => {
  const m = userId ? /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(userId) : null;
  return m ? m.slice(1).join('-') : null;
};
