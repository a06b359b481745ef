// Metrics of the organization, a pod or an inbox: counts of each event type per time bucket
// (…/metrics/events) and cumulative usage (…/metrics/usage), in AgentMail's shapes. Counts come
// from the mail as stored (store/metrics.ts): what was permanently deleted no longer counts.
// The older API's …/metrics (the Python SDK 0.5.0's metrics.query, inboxes.metrics.query and
// pods.metrics.query) answers the same counts under that path: its own event types (with
// message.delayed, which Hamlet never records: its buckets are 0) and its period as a string.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { invalid } from '../errors.js';
import { countBuckets, cumulativePoints, type Window } from '../metrics/series.js';
import { ownInbox, type MailContext } from './context.js';
import { boolOf, dateOf, listOf, type Query } from './query.js';
import { answers } from './responses.js';
import type { RequestScope } from '../identity/scope.js';
import { ALL_SCOPES, scopeOf } from './scope.js';

/** Event type → the labels its messages carry, and labels they must not carry (AgentMail sends .blocked instead of message.received). */
const EVENT_LABELS: Record<string, { labels: string[]; not?: string[] }> = {
  'message.received': { labels: ['received'], not: ['spam', 'blocked', 'unauthenticated'] },
  'message.received.spam': { labels: ['received', 'spam'] },
  'message.received.blocked': { labels: ['received', 'blocked'] },
  'message.received.unauthenticated': { labels: ['received', 'unauthenticated'] },
  'message.sent': { labels: ['sent'] },
  'message.delivered': { labels: ['delivered'] },
  'message.bounced': { labels: ['bounced'] },
  'message.complained': { labels: ['complained'] },
  'message.rejected': { labels: ['rejected'] },
};
const EVENT_TYPES = [...Object.keys(EVENT_LABELS), 'domain.verified'];
/** The event types of the older …/metrics route (AgentMail's API before the events/usage split). */
const OLD_EVENT_TYPES = [
  'message.sent',
  'message.delivered',
  'message.bounced',
  'message.delayed',
  'message.rejected',
  'message.complained',
  'message.received',
];
const USAGE_TYPES = {
  inbox: ['storage_bytes', 'message_count', 'thread_count'],
  pod: ['storage_bytes', 'message_count', 'thread_count', 'inbox_count', 'domain_count'],
  organization: ['storage_bytes', 'message_count', 'thread_count', 'inbox_count', 'domain_count', 'pod_count'],
};
const DAY_MS = 86_400_000;

const param = (description: string) => Type.Optional(Type.Unknown({ description }));
const window = {
  start: param('Start of the first bucket (ISO 8601; default: end minus one day)'),
  end: param('End of the window (ISO 8601; default: now)'),
  period: param('Bucket size in seconds, 1 to 86400 (default 3600)'),
  limit: param('Most buckets answered (default: all of the window, at most 1000)'),
  descending: param('true for the newest bucket first'),
};
const EventsQuery = Type.Object({ event_types: param('Event types (JSON array or repeated); default all'), ...window });
const UsageQuery = Type.Object({
  usage_types: param('Usage types (JSON array or repeated); default all valid for the scope'),
  ...window,
});
const OldEventsQuery = Type.Object({
  event_types: param('Event types (JSON array or repeated); default the seven of the older API'),
  ...window,
  period: param(
    'Bucket size: seconds, or a number with s, m, h or d (the older API sent a string); 1 s to 1 day, default 3600',
  ),
});
const Series = Type.Object({}, { additionalProperties: true, description: 'Series by type' });

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** The bucket size in seconds; `units` also reads "15m", "1h", "1d" (the older API's string period). */
function periodSeconds(q: Query, units: boolean): number {
  const raw = q.period === undefined || q.period === '' ? '3600' : String(q.period).trim();
  const m = (units ? /^(\d+)([smhd]?)$/ : /^(\d+)()$/).exec(raw);
  const seconds = m ? Number(m[1]) * UNIT_SECONDS[m[2] || 's'] : NaN;
  if (!(seconds >= 1 && seconds <= 86_400))
    throw invalid(
      'period',
      units
        ? 'must be seconds (or a number with s, m, h or d) from 1 second to 1 day'
        : 'must be a whole number of seconds from 1 to 86400',
    );
  return seconds;
}

function windowOf(q: Query, nowMs: number, units = false): Window {
  const end = Date.parse(dateOf(q, 'end') ?? new Date(nowMs).toISOString());
  const start = Date.parse(dateOf(q, 'start') ?? new Date(end - DAY_MS).toISOString());
  if (start >= end) throw invalid('start', 'must be before end');
  const period = periodSeconds(q, units);
  const limitRaw = q.limit === undefined || q.limit === '' ? '1000' : String(q.limit);
  if (!/^\d+$/.test(limitRaw) || Number(limitRaw) < 1) throw invalid('limit', 'must be a whole number of at least 1');
  return {
    start,
    end,
    periodMs: period * 1000,
    limit: Math.min(Number(limitRaw), 1000),
    descending: boolOf(q, 'descending') === true,
  };
}

function typesOf(q: Query, name: string, valid: string[]): string[] {
  const asked = listOf(q, name) ?? valid;
  const bad = asked.find((t) => !valid.includes(t));
  if (bad) throw invalid(name, `${bad} is not one of ${valid.join(', ')}`);
  return asked;
}

export function metricRoutes(app: App, ctx: MailContext): void {
  const { store } = ctx;
  const scopeName = (s: RequestScope) => (s.inboxId ? 'inbox' : s.podId ? 'pod' : 'organization');

  for (const base of ALL_SCOPES) {
    app.get(
      `${base}/metrics/events`,
      { schema: { querystring: EventsQuery, response: answers(Series, 404) } },
      async (request) => {
        const q = request.query as Query;
        return eventSeries(request, windowOf(q, ctx.platform.clock.ms()), typesOf(q, 'event_types', EVENT_TYPES));
      },
    );

    app.get(
      `${base}/metrics`,
      { schema: { querystring: OldEventsQuery, response: answers(Series, 404) } },
      async (request) => {
        const q = request.query as Query;
        return eventSeries(
          request,
          windowOf(q, ctx.platform.clock.ms(), true),
          typesOf(q, 'event_types', OLD_EVENT_TYPES),
        );
      },
    );

    app.get(
      `${base}/metrics/usage`,
      { schema: { querystring: UsageQuery, response: answers(Series, 404) } },
      async (request) => {
        const s = scopeOf(request);
        if (s.inboxId) await ctxInbox(request, s.inboxId);
        const q = request.query as Query;
        const w = windowOf(q, ctx.platform.clock.ms());
        const types = typesOf(q, 'usage_types', USAGE_TYPES[scopeName(s)]);
        const inboxIds = await store.inboxes.idsOfScope(s);
        const to = new Date(w.end).toISOString();
        const counted = (times: string[]) => times.map((time) => ({ time, value: 1 }));
        const out: Record<string, Array<{ timestamp: string; value: number }>> = {};
        const messages = types.some((t) => t === 'storage_bytes' || t === 'message_count')
          ? await store.metrics.messagesBefore(inboxIds, to)
          : [];
        for (const type of types) {
          const items =
            type === 'storage_bytes'
              ? messages.map((m) => ({ time: m.timestamp, value: m.size }))
              : type === 'message_count'
                ? messages.map((m) => ({ time: m.timestamp, value: 1 }))
                : type === 'thread_count'
                  ? counted(await store.metrics.threadTimes(inboxIds, to))
                  : type === 'inbox_count'
                    ? counted(await store.metrics.inboxTimes({ orgId: s.orgId, podId: s.podId }, to))
                    : type === 'domain_count'
                      ? counted(await store.metrics.domainTimes({ orgId: s.orgId, podId: s.podId }, to))
                      : counted(await store.metrics.podTimes(s.orgId, to));
          out[type] = cumulativePoints(items, w);
        }
        return out;
      },
    );
  }

  /** Counts of each event type per bucket of the window, in the request's scope. */
  async function eventSeries(request: Parameters<typeof scopeOf>[0], w: Window, types: string[]) {
    const s = scopeOf(request);
    if (s.inboxId) await ctxInbox(request, s.inboxId);
    const inboxIds = await store.inboxes.idsOfScope(s);
    const [from, to] = [new Date(w.start).toISOString(), new Date(w.end).toISOString()];
    const out: Record<string, Array<{ timestamp: string; count: number }>> = {};
    for (const type of types) {
      if (type === 'domain.verified') {
        const times = s.inboxId ? [] : await store.metrics.domainTimes({ orgId: s.orgId, podId: s.podId }, to, true);
        out[type] = countBuckets(times, w);
        continue;
      }
      const event = EVENT_LABELS[type];
      out[type] = countBuckets(
        event ? await store.metrics.messageTimes(inboxIds, event.labels, event.not ?? [], from, to) : [],
        w,
      );
    }
    return out;
  }

  const ctxInbox = (request: Parameters<typeof scopeOf>[0], inboxId: string) => ownInbox(ctx, request, inboxId);
}
