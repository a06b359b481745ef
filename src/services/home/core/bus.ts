// The home's own event bus (HA's `hass.bus`): typed events with a context and an origin,
// listeners per event type or for all. Synchronous, so a service call's state events reach
// every subscriber before the call's result is sent, as HA does.
import type { Logger } from '../../../platform/logger.js';
import type { Context } from './context.js';
import { isoUs } from './time.js';

export interface HomeEvent {
  event_type: string;
  data: Record<string, unknown>;
  origin: 'LOCAL' | 'REMOTE';
  time_fired: string;
  context: Context;
  /** Microseconds since the epoch (not serialized). */
  timeUs: number;
  /**
   * A state change made on another instance of a cluster and applied here (not serialized):
   * subscribers see it like any other, but it is neither recorded nor published again here.
   */
  replicated?: boolean;
}

export type EventListener = (event: HomeEvent) => void;

const jsonCache = new WeakMap<HomeEvent, string>();

/** The event's wire JSON, computed once per event however many subscribers receive it. */
export function eventJson(event: HomeEvent): string {
  let j = jsonCache.get(event);
  if (j === undefined) {
    j = JSON.stringify({
      event_type: event.event_type,
      data: event.data,
      origin: event.origin,
      time_fired: event.time_fired,
      context: event.context,
    });
    jsonCache.set(event, j);
  }
  return j;
}

export const MATCH_ALL = '*';

export class HomeBus {
  private readonly listeners = new Map<string, Set<EventListener>>();

  constructor(private readonly logger: Logger) {}

  listen(eventType: string, listener: EventListener): () => void {
    let set = this.listeners.get(eventType);
    if (!set) this.listeners.set(eventType, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(eventType) === set) this.listeners.delete(eventType);
    };
  }

  fire(
    eventType: string,
    data: Record<string, unknown>,
    context: Context,
    timeUs: number,
    origin: 'LOCAL' | 'REMOTE' = 'LOCAL',
    replicated = false,
  ): HomeEvent {
    const event: HomeEvent = {
      event_type: eventType,
      data,
      origin,
      time_fired: isoUs(timeUs),
      context,
      timeUs,
      replicated,
    };
    this.dispatch(this.listeners.get(eventType), event);
    this.dispatch(this.listeners.get(MATCH_ALL), event);
    return event;
  }

  private dispatch(set: Set<EventListener> | undefined, event: HomeEvent) {
    if (!set) return;
    for (const listener of [...set]) {
      try {
        listener(event);
      } catch (err) {
        this.logger.error({ err, event_type: event.event_type }, 'home event listener failed');
      }
    }
  }

  /** `GET /api/events`: event types with listeners and their counts (match-all listeners are their own row, as in HA). */
  listenerCounts(): Array<{ event: string; listener_count: number }> {
    return [...this.listeners].map(([event, set]) => ({ event, listener_count: set.size }));
  }
}
