// Filing a message into an inbox: thread it (In-Reply-To, then References newest first, in
// that inbox), keep the thread's counters and unions in its row in the same transaction, and
// record the events. Every way a message arrives (SMTP, a local send, our own sent copy) ends here.
import { sortableId } from '../store/sortable-ids.js';
import type { Clock } from '../../../platform/clock.js';
import type { Trace } from '../../../platform/trace.js';
import { uuid } from '../../../platform/ids.js';
import { bareAddress, distinct } from '../addresses.js';
import type { ParsedMessage } from './parse.js';
import { messageRecord, threadItem } from './records.js';
import type { InboxRow, MessageRow, MailStore, ThreadRow, Tx } from '../store/index.js';
import type { MailEvents } from '../webhooks/events.js';
import { TRASH } from '../labels.js';
import { BLOCKED } from '../lists/check.js';

export interface FileOptions {
  labels: string[];
  /** Join this thread instead of threading by headers (a reply from this inbox). */
  threadId?: string;
  /** Recipients the raw message does not show (Bcc of our own sent copy). */
  bcc?: string[];
}

export interface Filed {
  row: MessageRow;
  thread: ThreadRow;
  /** False when the inbox already held this Message-ID (its labels were merged instead). */
  created: boolean;
}

const union = (a: string[], b: string[]) => [...a, ...b.filter((x) => !a.includes(x))];

/** Labels that hide mail from lists unless asked for (include_trash, include_blocked…). */
const HIDING = [TRASH, BLOCKED, 'spam', 'unauthenticated'];

/**
 * A thread's labels: the union of its messages', except the hiding labels (trash, blocked…),
 * which a thread carries only when every message does: one trashed or blocked message must
 * not hide the rest of the conversation from thread lists.
 */
function threadLabelsOf(messageLabels: string[][]): string[] {
  const all = messageLabels.reduce<string[]>((acc, l) => union(acc, l), []);
  return all.filter((label) => !HIDING.includes(label) || messageLabels.every((l) => l.includes(label)));
}

export class Filing {
  constructor(
    private readonly store: MailStore,
    private readonly events: MailEvents,
    private readonly clock: Clock,
    /** Allow and block lists (lists/check.ts): received mail from a refused sender is labelled blocked. */
    private readonly lists?: { verdict(inbox: InboxRow, from: string, trx: Tx): Promise<'allow' | 'block'> },
    /** The platform's trace: each received message is a line of the console's activity feed. */
    private readonly trace?: Pick<Trace, 'event'>,
  ) {}

  async file(trx: Tx, inbox: InboxRow, msg: ParsedMessage, raw: Buffer, opts: FileOptions): Promise<Filed> {
    const now = this.clock.now().toISOString();
    if (
      this.lists &&
      opts.labels.includes('received') &&
      !opts.labels.includes(BLOCKED) &&
      (await this.lists.verdict(inbox, msg.from, trx)) === 'block'
    ) {
      opts = { ...opts, labels: [...opts.labels, BLOCKED] };
    }
    const existing = await this.store.messages.get(inbox.inbox_id, msg.messageId, trx);
    if (existing) {
      const labels = union(JSON.parse(existing.labels) as string[], opts.labels);
      if (labels.length !== (JSON.parse(existing.labels) as string[]).length) {
        await this.store.messages.setLabels(existing, labels, now, trx);
        await this.refreshThreadLabels(existing.thread_id, now, trx);
      }
      const thread = (await this.store.threads.get(existing.thread_id, trx))!;
      return { row: { ...existing, labels: JSON.stringify(labels) }, thread, created: false };
    }

    const joined =
      opts.threadId ??
      (await this.store.messages.threadOfAny(
        inbox.inbox_id,
        [msg.inReplyTo, ...[...msg.references].reverse()].filter((x): x is string => !!x),
        trx,
      ));
    const threadId = joined ?? uuid();
    const bcc = opts.bcc ?? msg.bcc;
    const row: MessageRow = {
      id: sortableId(this.clock.ms()),
      inbox_id: inbox.inbox_id,
      message_id: msg.messageId,
      thread_id: threadId,
      labels: JSON.stringify(opts.labels),
      timestamp: now,
      from_addr: msg.from,
      to_addrs: JSON.stringify(msg.to),
      cc_addrs: msg.cc.length ? JSON.stringify(msg.cc) : null,
      bcc_addrs: bcc.length ? JSON.stringify(bcc) : null,
      reply_to: msg.replyTo.length ? JSON.stringify(msg.replyTo) : null,
      subject: msg.subject ?? null,
      preview: msg.preview ?? null,
      text_body: msg.text ?? null,
      html_body: msg.html ?? null,
      extracted_text: msg.extractedText ?? null,
      extracted_html: msg.extractedHtml ?? null,
      attachments: msg.attachments.length ? JSON.stringify(msg.attachments) : null,
      in_reply_to: msg.inReplyTo ?? null,
      refs: msg.references.length ? JSON.stringify(msg.references) : null,
      headers: JSON.stringify(msg.headers),
      size: msg.size,
      created_at: now,
      updated_at: now,
    };
    await this.store.messages.insert(row, raw, trx);

    const recipients = [...msg.to, ...msg.cc, ...bcc];
    const sent = opts.labels.includes('sent');
    const received = opts.labels.includes('received');
    // A thread id made up just now has no row yet: no need to look.
    const current = joined ? await this.store.threads.forUpdate(threadId, trx) : undefined;
    let thread: ThreadRow;
    if (!current) {
      thread = {
        thread_id: threadId,
        inbox_id: inbox.inbox_id,
        subject: row.subject,
        preview: row.preview,
        labels: row.labels,
        senders: JSON.stringify([msg.from]),
        recipients: JSON.stringify(distinct(recipients)),
        attachments: row.attachments,
        last_message_id: row.message_id,
        message_count: 1,
        size: row.size,
        timestamp: now,
        received_timestamp: received ? now : null,
        sent_timestamp: sent ? now : null,
        created_at: now,
        updated_at: now,
      };
      await this.store.threads.insert(thread, trx);
    } else {
      const set: Partial<ThreadRow> = {
        preview: row.preview,
        // A new message that is not trash (or blocked…) brings a hidden thread back.
        labels: JSON.stringify(threadLabelsOf([JSON.parse(current.labels), opts.labels])),
        senders: JSON.stringify(distinct([...JSON.parse(current.senders), msg.from])),
        recipients: JSON.stringify(distinct([...JSON.parse(current.recipients), ...recipients])),
        attachments: msg.attachments.length
          ? JSON.stringify(
              [...(current.attachments ? JSON.parse(current.attachments) : []), ...msg.attachments].slice(0, 100),
            )
          : current.attachments,
        last_message_id: row.message_id,
        message_count: current.message_count + 1,
        size: current.size + row.size,
        timestamp: now,
        updated_at: now,
        ...(received ? { received_timestamp: now } : {}),
        ...(sent ? { sent_timestamp: now } : {}),
      };
      await this.store.threads.update(threadId, set, trx);
      thread = { ...current, ...set };
    }
    return { row, thread, created: true };
  }

  /** Records message.received for a filed message. */
  async received(trx: Tx, inbox: InboxRow, filed: Filed): Promise<void> {
    // Mail from a blocked sender is announced only to those who listen for it (AgentMail).
    const type = (JSON.parse(filed.row.labels) as string[]).includes(BLOCKED)
      ? 'message.received.blocked'
      : 'message.received';
    await this.events.emit(trx, scopeOf(inbox), type, () => ({
      message: messageRecord(filed.row),
      thread: threadItem(filed.thread, false),
    }));
    if (filed.created) {
      const { row } = filed;
      this.events.announceReceived(trx, {
        inbox_id: row.inbox_id,
        message_id: row.message_id,
        thread_id: row.thread_id,
        from: row.from_addr,
        subject: row.subject,
        labels: JSON.parse(row.labels) as string[],
        timestamp: row.timestamp,
      });
    }
    const { trace } = this;
    if (trace && filed.created && type === 'message.received') {
      const row = filed.row;
      this.store.afterCommit(trx, async () =>
        trace.event({
          service: 'mail',
          summary: `Mail from ${row.from_addr} to ${inbox.inbox_id}: ${row.subject ?? '(no subject)'}`,
          detail: { inbox_id: inbox.inbox_id, message_id: row.message_id, thread_id: row.thread_id },
        }),
      );
    }
  }

  /** Adds and removes labels of a message; the thread's label union follows. */
  async relabel(trx: Tx, row: MessageRow, add: string[], remove: string[]): Promise<string[]> {
    const before = JSON.parse(row.labels) as string[];
    const labels = union(before, add).filter((l) => !remove.includes(l));
    if (labels.length === before.length && labels.every((l, i) => l === before[i])) return labels;
    const now = this.clock.now().toISOString();
    await this.store.messages.setLabels(row, labels, now, trx);
    await this.refreshThreadLabels(row.thread_id, now, trx);
    return labels;
  }

  async refreshThreadLabels(threadId: string, now: string, trx: Tx): Promise<void> {
    await this.store.threads.forUpdate(threadId, trx);
    const sets = await this.store.messages.labelSetsOfThread(threadId, trx);
    const labels = threadLabelsOf(sets.map((r) => JSON.parse(r.labels) as string[]));
    await this.store.threads.update(threadId, { labels: JSON.stringify(labels), updated_at: now }, trx);
  }

  /** Re-derives a thread's counters after messages left it; deletes it when none is left. */
  async recountThread(threadId: string, trx: Tx): Promise<void> {
    const rows = await this.store.messages.summariesOfThread(threadId, trx);
    if (!rows.length) {
      await this.store.threads.deleteEmpty(threadId, trx);
      return;
    }
    const last = rows[rows.length - 1];
    const recipients = rows.flatMap((r) =>
      [r.to_addrs, r.cc_addrs, r.bcc_addrs].flatMap((j) => (j ? (JSON.parse(j) as string[]) : [])),
    );
    await this.store.threads.update(
      threadId,
      {
        labels: JSON.stringify(threadLabelsOf(rows.map((r) => JSON.parse(r.labels) as string[]))),
        senders: JSON.stringify(distinct(rows.map((r) => r.from_addr))),
        recipients: JSON.stringify(distinct(recipients)),
        message_count: rows.length,
        size: rows.reduce((n, r) => n + r.size, 0),
        last_message_id: last.message_id,
        preview: last.preview,
        timestamp: last.timestamp,
        updated_at: this.clock.now().toISOString(),
      },
      trx,
    );
  }
}

export const scopeOf = (inbox: InboxRow) => ({ orgId: inbox.org_id, inboxId: inbox.inbox_id, podId: inbox.pod_id });

/** The bare addresses of recipient strings, without duplicates. */
export const bareList = (list: string[]) => [...new Set(list.map(bareAddress))];
