// Event messages encoded once per event and subscription id. Clients of one library number
// their subscriptions alike, so most subscribers of an event share one buffer and every
// socket queue holds a reference to it instead of its own copy (200 slow readers of a 20 KB
// event queued 4 MB of copies per event before).
import { eventJson, type HomeEvent } from '../core/bus.js';
import type { EntityMessage } from './compressed.js';

function shared<K extends object>(
  cache: WeakMap<K, Map<number, Buffer>>,
  key: K,
  subscription: number,
  encode: (key: K, subscription: number) => string,
): Buffer {
  let frames = cache.get(key);
  if (!frames) cache.set(key, (frames = new Map()));
  let frame = frames.get(subscription);
  if (!frame) frames.set(subscription, (frame = Buffer.from(encode(key, subscription))));
  return frame;
}

const eventFrames = new WeakMap<HomeEvent, Map<number, Buffer>>();
const encodeEvent = (e: HomeEvent, subscription: number) =>
  `{"id":${subscription},"type":"event","event":${eventJson(e)}}`;

/** A subscribe_events message. */
export const eventFrame = (e: HomeEvent, subscription: number): Buffer =>
  shared(eventFrames, e, subscription, encodeEvent);

const entityFrames = new WeakMap<EntityMessage, Map<number, Buffer>>();
function encodeEntity(m: EntityMessage, subscription: number): string {
  const body = m.kind === 'r' ? `[${m.text}]` : `{${m.text}}`;
  return `{"id":${subscription},"type":"event","event":{"${m.kind}":${body}}}`;
}

/** A subscribe_entities message of a single change. */
export const entityFrame = (m: EntityMessage, subscription: number): Buffer =>
  shared(entityFrames, m, subscription, encodeEntity);
