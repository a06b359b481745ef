// Drafts: a message being written, stored with its attachments until it is sent (then it is
// deleted) or scheduled (`send_at`: a durable job sends it then). A draft replying to or
// forwarding a message takes recipients, subject and threading from it.
import { DomainError } from '../../../platform/errors.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { Jobs } from '../../../platform/jobs.js';
import { recipients } from '../addresses.js';
import { invalid, notFoundError } from '../errors.js';
import type { PreparedSend, SendBody, SendResult, Sending, Threading } from '../sending/sending.js';
import type { AttachmentMeta } from '../messages/parse.js';
import type { DraftRow, InboxRow, MailStore, Tx } from '../store/index.js';

export const DRAFT_SEND_QUEUE = 'mail.draft.send';

interface StoredAttachment extends AttachmentMeta {
  content: string;
}

export interface DraftFields {
  to?: string[];
  cc?: string[];
  bcc?: string[];
  reply_to?: string[];
  subject?: string;
  text?: string;
  html?: string;
  attachments?: StoredAttachment[];
  in_reply_to?: string;
  forward_of?: string;
  references?: string[];
}

export interface DraftInput {
  to?: string | string[] | null;
  cc?: string | string[] | null;
  bcc?: string | string[] | null;
  reply_to?: string | string[] | null;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  labels?: string[] | null;
  attachments?: Array<{
    filename?: string | null;
    content_type?: string | null;
    content_disposition?: string | null;
    content_id?: string | null;
    content?: string | null;
    url?: string | null;
  }> | null;
  in_reply_to?: string | null;
  forward_of?: string | null;
  reply_all?: boolean | null;
  send_at?: string | null;
  client_id?: string | null;
}

export interface DraftJob {
  draft_id: string;
  send_at: string;
}

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

function storedAttachments(list: DraftInput['attachments'], field: string, startAt = 1): StoredAttachment[] {
  return (list ?? []).map((a, i) => {
    if (a.content == null)
      throw invalid(`${field}[${i}].content`, 'is required (base64); URL attachments are not supported here');
    if (!BASE64.test(a.content)) throw invalid(`${field}[${i}].content`, 'must be base64');
    const bytes = Buffer.from(a.content, 'base64');
    return {
      attachment_id: `att_${startAt + i}`,
      size: bytes.length,
      ...(a.filename ? { filename: a.filename } : {}),
      ...(a.content_type ? { content_type: a.content_type } : {}),
      content_disposition: a.content_disposition === 'inline' ? 'inline' : 'attachment',
      ...(a.content_id ? { content_id: a.content_id } : {}),
      content: bytes.toString('base64'),
    };
  });
}

export class Drafts {
  constructor(
    private readonly store: MailStore,
    private readonly sending: Sending,
    private readonly jobs: Jobs,
    private readonly now: () => Date,
  ) {}

  /** The send_at of a request as ISO, checked to be in the future; null clears it. */
  private sendAt(value: string | null | undefined): string | null | undefined {
    if (value === undefined || value === null) return value;
    const d = new Date(value);
    if (Number.isNaN(d.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(value))
      throw invalid('send_at', 'must be an ISO 8601 date-time');
    if (d.getTime() <= this.now().getTime()) throw invalid('send_at', 'must be in the future');
    return d.toISOString();
  }

  async create(inbox: InboxRow, input: DraftInput): Promise<DraftRow> {
    if (input.in_reply_to && input.forward_of) throw invalid('forward_of', 'give in_reply_to or forward_of, not both');
    if (input.reply_all && (input.to != null || input.cc != null || input.bcc != null))
      throw invalid('reply_all', 'takes its recipients from the message replied to: leave out to, cc and bcc');
    const fields: DraftFields = {
      to: recipients('to', input.to),
      cc: recipients('cc', input.cc),
      bcc: recipients('bcc', input.bcc),
      reply_to: recipients('reply_to', input.reply_to),
      ...(input.subject != null ? { subject: input.subject } : {}),
      ...(input.text != null ? { text: input.text } : {}),
      ...(input.html != null ? { html: input.html } : {}),
      attachments: storedAttachments(input.attachments, 'attachments'),
    };
    if (input.in_reply_to || input.forward_of) {
      const id = (input.in_reply_to ?? input.forward_of)!;
      const source = await this.store.messages.get(inbox.inbox_id, id);
      if (!source)
        throw invalid(input.in_reply_to ? 'in_reply_to' : 'forward_of', `no message ${id} in this inbox`, 'NOT_FOUND');
      if (input.in_reply_to) {
        const f = this.sending.replyFields(inbox, source, input.reply_all === true);
        if (!fields.to!.length) fields.to = f.to;
        if (!fields.cc!.length) fields.cc = f.cc;
        fields.subject ??= f.subject;
        fields.in_reply_to = source.message_id;
        fields.references = f.threading.references;
      } else {
        const subject = source.subject ?? '';
        fields.subject ??= /^fwd?:/i.test(subject) ? subject : `Fwd: ${subject}`.trim();
        fields.forward_of = source.message_id;
      }
    }
    const sendAt = this.sendAt(input.send_at);
    const now = this.now().toISOString();
    const labels = [...new Set([...(input.labels ?? []), ...(sendAt ? ['scheduled'] : [])])];
    const row: DraftRow = {
      draft_id: `drf_${randomBase62(22)}`,
      inbox_id: inbox.inbox_id,
      org_id: inbox.org_id,
      client_id: input.client_id ?? null,
      body: JSON.stringify(fields),
      labels: JSON.stringify(labels),
      send_at: sendAt ?? null,
      send_status: sendAt ? 'scheduled' : null,
      created_at: now,
      updated_at: now,
    };
    await this.store.transaction(async (trx) => {
      await this.store.drafts.insert(row, trx);
      if (sendAt) await this.schedule(row.draft_id, sendAt, trx);
    });
    return row;
  }

  async update(
    draft: DraftRow,
    input: DraftInput & {
      add_attachments?: DraftInput['attachments'];
      remove_attachments?: string[] | null;
      add_labels?: string[] | null;
      remove_labels?: string[] | null;
    },
  ): Promise<DraftRow> {
    const fields = JSON.parse(draft.body) as DraftFields;
    // An omitted field stays; null (or [] for recipients) clears it.
    for (const name of ['to', 'cc', 'bcc', 'reply_to'] as const)
      if (input[name] !== undefined) fields[name] = recipients(name, input[name]);
    for (const name of ['subject', 'text', 'html'] as const) {
      if (input[name] === null) delete fields[name];
      else if (input[name] !== undefined) fields[name] = input[name]!;
    }
    if (input.remove_attachments?.length)
      fields.attachments = (fields.attachments ?? []).filter(
        (a) => !input.remove_attachments!.includes(a.attachment_id),
      );
    if (input.add_attachments?.length) {
      const next = Math.max(0, ...(fields.attachments ?? []).map((a) => Number(a.attachment_id.slice(4)) || 0)) + 1;
      fields.attachments = [
        ...(fields.attachments ?? []),
        ...storedAttachments(input.add_attachments, 'add_attachments', next),
      ];
    }
    let labels = JSON.parse(draft.labels) as string[];
    labels = [...new Set([...labels, ...(input.add_labels ?? [])])].filter(
      (l) => !(input.remove_labels ?? []).includes(l),
    );
    const set: Partial<DraftRow> = { body: JSON.stringify(fields), updated_at: this.now().toISOString() };
    let schedule: string | undefined;
    if (input.send_at !== undefined) {
      const sendAt = this.sendAt(input.send_at);
      set.send_at = sendAt ?? null;
      set.send_status = sendAt ? 'scheduled' : null;
      labels = sendAt ? [...new Set([...labels, 'scheduled'])] : labels.filter((l) => l !== 'scheduled');
      schedule = sendAt ?? undefined;
    }
    set.labels = JSON.stringify(labels);
    await this.store.transaction(async (trx) => {
      await this.store.drafts.update(draft.draft_id, set, trx);
      if (schedule) await this.schedule(draft.draft_id, schedule, trx);
    });
    return { ...draft, ...set };
  }

  private async schedule(draftId: string, sendAt: string, trx: Tx): Promise<void> {
    const job: DraftJob = { draft_id: draftId, send_at: sendAt };
    await this.jobs.enqueue(DRAFT_SEND_QUEUE, job, { runAt: new Date(sendAt) }, trx);
  }

  /**
   * Composes a draft's message (outside any transaction) and returns the write that sends it
   * and deletes the draft, in a transaction. The write re-reads the draft there: gone or moved
   * is a 404, changed since it was composed is a 409 (send again).
   */
  async prepareSend(
    inbox: InboxRow,
    draft: DraftRow,
    labels: { add?: string[]; remove?: string[] },
  ): Promise<(trx: Tx) => Promise<SendResult>> {
    const f = JSON.parse(draft.body) as DraftFields;
    const userLabels = (JSON.parse(draft.labels) as string[]).filter((l) => l !== 'scheduled');
    const body: SendBody = {
      to: f.to,
      cc: f.cc,
      bcc: f.bcc,
      reply_to: f.reply_to,
      subject: f.subject,
      text: f.text,
      html: f.html,
      labels: [...new Set([...userLabels, ...(labels.add ?? [])])].filter((l) => !(labels.remove ?? []).includes(l)),
      attachments: (f.attachments ?? []).map((a) => ({
        filename: a.filename,
        content_type: a.content_type,
        content_disposition: a.content_disposition,
        content_id: a.content_id,
        content: a.content,
      })),
    };
    this.sending.validate(body);
    const source =
      (f.in_reply_to ?? f.forward_of)
        ? await this.store.messages.get(inbox.inbox_id, (f.in_reply_to ?? f.forward_of)!)
        : undefined;
    let prepared: PreparedSend;
    if (f.forward_of && source) {
      prepared = await this.sending.prepareForward(inbox, source, body);
    } else {
      const threading: Threading = f.in_reply_to
        ? { inReplyTo: f.in_reply_to, references: f.references, threadId: source?.thread_id }
        : {};
      prepared = await this.sending.prepare(inbox, body, threading);
    }
    return async (trx) => {
      const fresh = await this.store.drafts.get(draft.draft_id, trx);
      if (!fresh || fresh.inbox_id !== inbox.inbox_id) throw notFoundError('Draft');
      if (fresh.updated_at !== draft.updated_at || fresh.body !== draft.body || fresh.labels !== draft.labels) {
        throw new DomainError('conflict', 'The draft changed while it was being sent; send it again', 'conflict', {
          code: 'DRAFT_CHANGED',
        });
      }
      const result = await this.sending.write(prepared, trx);
      await this.store.drafts.delete(draft.draft_id, trx);
      return result;
    };
  }

  /** The scheduled-send job: sends the draft if it is still scheduled for this time. */
  async runScheduled(job: DraftJob): Promise<void> {
    const draft = await this.store.drafts.get(job.draft_id);
    if (!draft || draft.send_at !== job.send_at) return; // sent, deleted or rescheduled since
    const inbox = await this.store.inboxes.get(draft.inbox_id);
    if (!inbox) return;
    let write: (trx: Tx) => Promise<SendResult>;
    try {
      write = await this.prepareSend(inbox, draft, {});
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      // The draft cannot be sent as it is (e.g. no recipients): say so on the draft, unless it changed meanwhile.
      await this.store.transaction(async (trx) => {
        const fresh = await this.store.drafts.get(job.draft_id, trx);
        if (fresh?.updated_at === draft.updated_at)
          await this.store.drafts.update(
            draft.draft_id,
            { send_status: 'failed', updated_at: this.now().toISOString() },
            trx,
          );
      });
      return;
    }
    await this.store.transaction(async (trx) => {
      const fresh = await this.store.drafts.get(job.draft_id, trx);
      if (!fresh || fresh.send_at !== job.send_at) return; // sent, deleted or rescheduled while composing
      // Edited while composing (still due now): the job runs again and composes the new version.
      await write(trx);
    });
  }
}
