// The events that cross service boundaries, named for what happened, with their payloads.
// A service publishes or hears these constants and never another service's module, so the
// services stay independent and the wire names (Redis channels in queue mode) live in one place.
// Topics a service uses only internally (cache invalidation, its own live streams) stay with it.

/** A topic name that carries its payload type, so publish and subscribe agree on the shape. */
export type Topic<T> = string & { readonly __payload?: T };

/** A stored state in Home Assistant's JSON shape. */
export interface EntityStateJson {
  entity_id: string;
  state: string;
  attributes: Record<string, unknown>;
  last_changed: string;
  last_updated: string;
  [key: string]: unknown;
}

/**
 * An entity's state changed (or it appeared, or was removed). `origin` names the home
 * instance that made the change, so the other instances of a cluster apply it and it skips its own.
 */
export const ENTITY_STATE_CHANGED: Topic<{
  entity_id: string;
  old_state: EntityStateJson | null;
  new_state: EntityStateJson | null;
  context: unknown;
  origin?: string;
}> = 'home.state_changed';

/** Someone posted in a community; the payload is the post as the API answers it. */
export const COMMUNITY_POST_CREATED: Topic<Record<string, unknown>> = 'community.post.created';

/**
 * A message was filed into an inbox as received (over SMTP or from another inbox), published
 * after its commit. The console's mail pages refresh on it; the mail service itself does not hear it.
 */
export interface MailReceived {
  inbox_id: string;
  message_id: string;
  thread_id: string;
  from: string;
  subject: string | null;
  labels: string[];
  timestamp: string;
}
export const MAIL_RECEIVED: Topic<MailReceived> = 'mail.message.received';

/** What became of one message the platform mailer queued (see platform/mailer.ts). */
export interface MailOutcome {
  route: 'local' | 'relay';
  envelope: { from: string; to: string[] };
  /** The sender's own data, echoed back (e.g. a message id). */
  meta?: unknown;
  error?: string;
  responseCode?: number;
}
export const MAIL_SENT: Topic<MailOutcome> = 'platform.mail.sent';
export const MAIL_FAILED: Topic<MailOutcome> = 'platform.mail.failed';

/** A key was revoked: every instance drops it from its cache. */
export const KEY_REVOKED: Topic<{ hash: string }> = 'platform.key.revoked';

/**
 * The operator moved, froze or unfroze the clock (or a world was restored): every instance applies
 * it. `now` is the clock time when sent and `sentAt` the sender's real time, so a running clock
 * keeps its offset across instances (their system clocks are assumed synchronised).
 */
export const CLOCK_CHANGED: Topic<{ origin: string; frozen: boolean; now: number; sentAt: number }> =
  'platform.clock.changed';

/** Entries were stored in the trace of what agents did (platform/trace.ts), a batch at a time; the console's activity feed follows it. */
export const TRACE_RECORDED: Topic<Array<import('./trace.js').TraceEntry>> = 'platform.trace.recorded';
/** The console replaced the world's rows (restore, reset, seed): every instance reloads what it keeps in memory. */
export const WORLD_RESTORED: Topic<{ origin: string }> = 'platform.world.restored';
