// What the metrics routes count, read from the mail as stored: an event of each type leaves a
// label on a message (received, sent, delivered, bounced, spam, blocked), so counting needs no
// write on the mail path and covers mail filed before metrics existed. Deleted mail no longer counts.
import type { MailDb } from './mail-db.js';

export class MetricsStore {
  constructor(private readonly m: MailDb) {}

  /** Timestamps of the messages of these inboxes that carry every label in `labels` and none in `not`, in [start, end). */
  async messageTimes(
    inboxIds: string[],
    labels: string[],
    not: string[],
    start: string,
    end: string,
  ): Promise<string[]> {
    if (!inboxIds.length) return [];
    let q = this.m.db
      .selectFrom('mail_messages')
      .select('timestamp')
      .where('inbox_id', 'in', inboxIds)
      .where('timestamp', '>=', start)
      .where('timestamp', '<', end);
    for (const l of labels) q = q.where(this.m.hasLabel(l));
    for (const l of not) q = q.where(this.m.hasLabel(l, true));
    return (await q.execute()).map((r) => r.timestamp);
  }

  /** Timestamp and size of every message of these inboxes before `end` (usage series). */
  messagesBefore(inboxIds: string[], end: string) {
    if (!inboxIds.length) return Promise.resolve([] as Array<{ timestamp: string; size: number }>);
    return this.m.db
      .selectFrom('mail_messages')
      .select(['timestamp', 'size'])
      .where('inbox_id', 'in', inboxIds)
      .where('timestamp', '<', end)
      .execute();
  }

  async threadTimes(inboxIds: string[], end: string): Promise<string[]> {
    if (!inboxIds.length) return [];
    return (
      await this.m.db
        .selectFrom('mail_threads')
        .select('created_at')
        .where('inbox_id', 'in', inboxIds)
        .where('created_at', '<', end)
        .execute()
    ).map((r) => r.created_at);
  }

  async inboxTimes(where: { orgId: string; podId?: string }, end: string): Promise<string[]> {
    let q = this.m.db
      .selectFrom('mail_inboxes')
      .select('created_at')
      .where('org_id', '=', where.orgId)
      .where('created_at', '<', end);
    if (where.podId) q = q.where('pod_id', '=', where.podId);
    return (await q.execute()).map((r) => r.created_at);
  }

  async podTimes(orgId: string, end: string): Promise<string[]> {
    return (
      await this.m.db
        .selectFrom('mail_pods')
        .select('created_at')
        .where('org_id', '=', orgId)
        .where('created_at', '<', end)
        .execute()
    ).map((r) => r.created_at);
  }

  async domainTimes(where: { orgId: string; podId?: string }, end: string, verifiedOnly = false): Promise<string[]> {
    let q = this.m.db
      .selectFrom('mail_domains')
      .select(['created_at', 'verified_at'])
      .where('org_id', '=', where.orgId);
    if (where.podId) q = q.where('pod_id', '=', where.podId);
    const rows = await q.execute();
    const times = verifiedOnly
      ? rows.map((r) => r.verified_at).filter((t): t is string => !!t)
      : rows.map((r) => r.created_at);
    return times.filter((t) => t < end);
  }
}
