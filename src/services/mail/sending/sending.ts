// Sending from an inbox: compose a real RFC 5322 message, file the sender's copy (`sent`),
// deliver at once to inboxes of this service, hand the rest to the platform mailer (durable,
// relayed to HAMLET_SMTP_RELAY) or, with no relay, hold it in the outbox (`queued`), and
// bounce visibly what cannot be delivered (addresses of our domains with no inbox). Replies and
// forwards are sends with recipients, subject and threading taken from a source message.
//
// Two steps, because a transaction awaits nothing but its statements (platform/transactions.ts):
// `prepare*` composes and parses the message outside any transaction; `write` files and
// delivers it inside the caller's transaction, with database work only.
import { mailComposer } from '../../../platform/optional-modules.js';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Platform } from '../../../platform/service.js';
import { uuid } from '../../../platform/ids.js';
import { bareAddress, distinct, domainOf, recipients } from '../addresses.js';
import type { MailSettings } from '../settings.js';
import { invalid } from '../errors.js';
import { bareList, scopeOf, type Filing } from '../messages/filing.js';
import { allAttachments, parseMessage, type ParsedMessage } from '../messages/parse.js';
import type { InboxRow, MessageRow, MailStore, Tx } from '../store/index.js';
import type { MailEvents } from '../webhooks/events.js';
import { QUEUED_LABEL, type Outbox } from '../outbox/outbox.js';
import type { AgentRules } from '../agents/rules.js';

export interface SendBody {
  to?: string | string[];
  cc?: string | string[];
  bcc?: string | string[];
  reply_to?: string | string[];
  subject?: string;
  text?: string;
  html?: string;
  labels?: string[];
  attachments?: Array<{
    filename?: string;
    content_type?: string;
    content_disposition?: string;
    content_id?: string;
    content?: string;
    url?: string;
  }>;
  headers?: Record<string, string>;
  reply_all?: boolean;
}

export interface SendResult {
  message_id: string;
  thread_id: string;
}

/** Headers the service writes itself; a caller may not set them through `headers`. */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'reply-to',
  'subject',
  'message-id',
  'date',
  'in-reply-to',
  'references',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'sender',
  'return-path',
]);
const HEADER_NAME = /^[!-9;-~]+$/; // printable ASCII without the colon (RFC 5322 field-name)
const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;

/** Where a message joins a conversation, and what it carries along (a forward's attachments). */
export interface Threading {
  inReplyTo?: string;
  references?: string[];
  threadId?: string;
  extraAttachments?: Mail.Attachment[];
}

/** What a relay job carries back in the mailer's sent/failed events. */
export interface RelayMeta {
  service: 'mail';
  id: string;
}

/** A message composed outside any transaction, ready to be written (see `Sending.write`). */
export interface PreparedSend {
  inbox: InboxRow;
  to: string[];
  cc: string[];
  bcc: string[];
  messageId: string;
  raw: Buffer;
  parsed: ParsedMessage;
  /** Labels the caller asked for besides `sent`. */
  labels: string[];
  threadId?: string;
}

export class Sending {
  constructor(
    private readonly platform: Platform,
    private readonly store: MailStore,
    private readonly filing: Filing,
    private readonly events: MailEvents,
    private readonly config: MailSettings,
    private readonly outbox: Outbox,
    /** What an agent's unverified organization may send (agents/rules.ts). */
    private readonly agentRules: Pick<AgentRules, 'checkSend'>,
    /** DKIM-signs mail from verified custom domains (domains/domains.ts). */
    private readonly signer?: { sign(raw: Buffer, domain: string): Promise<Buffer> },
  ) {}

  /** A plain send. */
  prepareSend(inbox: InboxRow, body: SendBody): Promise<PreparedSend> {
    return this.prepare(inbox, body, {});
  }

  /** Recipients, subject and threading of a reply (to all, with `all`) to `source`. */
  replyFields(inbox: InboxRow, source: MessageRow, all: boolean) {
    const own = inbox.inbox_id;
    const replyTo = source.reply_to ? (JSON.parse(source.reply_to) as string[]) : [];
    const sourceTo = JSON.parse(source.to_addrs) as string[];
    const sourceCc = source.cc_addrs ? (JSON.parse(source.cc_addrs) as string[]) : [];
    let to: string[];
    let cc: string[] = [];
    if (all) {
      const everyone = distinct([...(replyTo.length ? replyTo : [source.from_addr]), ...sourceTo, ...sourceCc]).filter(
        (a) => bareAddress(a) !== own,
      );
      to = everyone.length ? [everyone[0]] : [];
      cc = everyone.slice(1);
    } else {
      to = replyTo.length ? replyTo : [source.from_addr];
      // Replying to our own sent message goes to its recipients, not back to ourselves.
      if (to.every((a) => bareAddress(a) === own)) to = sourceTo;
    }
    const subject = source.subject ?? '';
    const refs = source.refs ? (JSON.parse(source.refs) as string[]) : [];
    return {
      to,
      cc,
      subject: /^re:/i.test(subject) ? subject : `Re: ${subject}`.trim(),
      threading: {
        inReplyTo: source.message_id,
        references: [...refs, source.message_id],
        threadId: source.thread_id,
      } as Threading,
    };
  }

  prepareReply(inbox: InboxRow, source: MessageRow, body: SendBody, all: boolean): Promise<PreparedSend> {
    const f = this.replyFields(inbox, source, all);
    // Fields the caller gives override the derived recipients one by one.
    return this.prepare(
      inbox,
      { ...body, to: body.to ?? f.to, cc: body.cc ?? (f.cc.length ? f.cc : undefined), subject: f.subject },
      f.threading,
    );
  }

  async prepareForward(inbox: InboxRow, source: MessageRow, body: SendBody): Promise<PreparedSend> {
    const subject = source.subject ?? '';
    const header = [
      '---------- Forwarded message ---------',
      `From: ${source.from_addr}`,
      `Date: ${source.timestamp}`,
      `Subject: ${subject}`,
      `To: ${(JSON.parse(source.to_addrs) as string[]).join(', ')}`,
    ].join('\n');
    const text = `${body.text ? body.text + '\n\n' : ''}${header}\n\n${source.text_body ?? ''}`;
    const html =
      body.html !== undefined || source.html_body
        ? `${body.html ?? ''}<div class="forwarded"><pre>${header.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!)}</pre>${source.html_body ?? ''}</div>`
        : undefined;
    // The source's raw copy is read before the transaction: a stored message never changes its bytes.
    const raw = await this.store.messages.raw(source.id);
    const original = raw ? await allAttachments(raw) : [];
    return this.prepare(
      inbox,
      { ...body, subject: /^fwd?:/i.test(subject) ? subject : `Fwd: ${subject}`.trim(), text, html },
      {
        threadId: source.thread_id,
        extraAttachments: original.map((a) => ({
          filename: a.filename,
          content: a.content,
          contentType: a.contentType,
          cid: a.cid,
          contentDisposition: a.contentDisposition as 'inline' | 'attachment',
        })),
      },
    );
  }

  /** Validates a send body; throws a 400 naming the field. Returns the normalized recipients. */
  validate(body: SendBody) {
    const to = recipients('to', body.to);
    const cc = recipients('cc', body.cc);
    const bcc = recipients('bcc', body.bcc);
    const replyTo = recipients('reply_to', body.reply_to);
    const count = to.length + cc.length + bcc.length;
    if (count === 0) throw invalid('to', 'at least one recipient is required (to, cc or bcc)', 'REQUIRED');
    if (count > this.config.maxRecipients)
      throw invalid(
        'to',
        `at most ${this.config.maxRecipients} recipients across to, cc and bcc (got ${count})`,
        'TOO_MANY_RECIPIENTS',
      );
    for (const [name, value] of Object.entries(body.headers ?? {})) {
      if (!HEADER_NAME.test(name)) throw invalid(`headers.${name}`, 'is not a valid header name');
      if (RESERVED_HEADERS.has(name.toLowerCase()) || name.toLowerCase().startsWith('content-'))
        throw invalid(`headers.${name}`, 'is set by the service and cannot be overridden');
      if (/[\r\n]/.test(value)) throw invalid(`headers.${name}`, 'must not contain line breaks');
    }
    (body.attachments ?? []).forEach((a, i) => {
      if (a.content == null && a.url == null) throw invalid(`attachments[${i}]`, 'needs content (base64) or url');
      if (a.content != null && !BASE64.test(a.content)) throw invalid(`attachments[${i}].content`, 'must be base64');
      if (a.url != null && a.content == null)
        throw invalid(`attachments[${i}].url`, 'URL attachments are not supported here; send the content as base64');
    });
    return { to, cc, bcc, replyTo };
  }

  /** Validates and composes the message, and parses it as it will be filed: no database. */
  async prepare(inbox: InboxRow, body: SendBody, thread: Threading): Promise<PreparedSend> {
    const { to, cc, bcc, replyTo } = this.validate(body);
    const domain = domainOf(inbox.inbox_id);
    const messageId = `<${uuid()}@${domain}>`;
    const options: Mail.Options = {
      from: inbox.display_name ? { name: inbox.display_name, address: inbox.inbox_id } : inbox.inbox_id,
      to,
      cc,
      bcc,
      replyTo: replyTo.length ? replyTo : undefined,
      subject: body.subject,
      text: body.text,
      html: body.html,
      messageId,
      date: this.platform.clock.now(),
      inReplyTo: thread.inReplyTo,
      references: thread.references,
      headers: body.headers,
      attachments: [
        ...(body.attachments ?? []).map((a) => ({
          filename: a.filename,
          content: Buffer.from(a.content!, 'base64'),
          contentType: a.content_type,
          contentDisposition: a.content_disposition === 'inline' ? ('inline' as const) : ('attachment' as const),
          cid: a.content_id,
        })),
        ...(thread.extraAttachments ?? []),
      ],
    };
    const node = new (mailComposer())(options).compile();
    const built = await node.build();
    const raw = this.signer ? await this.signer.sign(built, domain) : built;
    const parsed = await parseMessage(raw, domain);
    return { inbox, to, cc, bcc, messageId, raw, parsed, labels: body.labels ?? [], threadId: thread.threadId };
  }

  /** The write of a prepared message, for a caller that opens the transaction later. */
  writer(p: PreparedSend): (trx: Tx) => Promise<SendResult> {
    return (trx) => this.write(p, trx);
  }

  /** Files the sender's copy and delivers a prepared message, in `trx` (see the top of this file). */
  async write(p: PreparedSend, trx: Tx): Promise<SendResult> {
    const { inbox, to, cc, bcc, messageId, raw, parsed } = p;
    const all = bareList([...to, ...cc, ...bcc]);
    await this.agentRules.checkSend(trx, inbox.org_id, all, this.platform.clock.now());
    const local = all.filter((a) => this.platform.mailer.isLocal(a));
    const remote = all.filter((a) => !this.platform.mailer.isLocal(a));
    const targets = await this.store.inboxes.byIds(local, trx);
    const unknownLocal = local.filter((a) => !targets.some((t) => t.inbox_id === a));
    const relay = this.platform.mailer.hasRelay;
    const bounced = unknownLocal;
    const deliveredLocally = targets.map((t) => t.inbox_id);

    const labels = ['sent', ...p.labels.filter((l) => l !== 'sent')];
    if (deliveredLocally.length && !remote.length && !unknownLocal.length) labels.push('delivered');
    if (bounced.length) labels.push('bounced');
    if (remote.length && !relay) labels.push(QUEUED_LABEL);
    const own = await this.filing.file(trx, inbox, parsed, raw, { labels, threadId: p.threadId, bcc });
    const ref = {
      inbox_id: inbox.inbox_id,
      thread_id: own.row.thread_id,
      message_id: messageId,
      timestamp: own.row.timestamp,
    };
    const scope = scopeOf(inbox);
    await this.events.emit(trx, scope, 'message.sent', () => ({ send: { ...ref, recipients: all } }));

    for (const target of targets) {
      const filed = await this.filing.file(trx, target, parsed, raw, { labels: ['received', 'unread'] });
      await this.filing.received(trx, target, filed);
    }
    if (deliveredLocally.length)
      await this.events.emit(trx, scope, 'message.delivered', () => ({
        delivery: { ...ref, recipients: deliveredLocally },
      }));
    if (remote.length) {
      const meta: RelayMeta = { service: 'mail', id: own.row.id };
      if (relay) await this.platform.mailer.sendRaw({ from: inbox.inbox_id, to: remote }, raw, { meta, trx });
      else await this.outbox.holdSent(trx, { inbox, messageRowId: own.row.id, parsed, raw, to: remote, meta });
    }
    if (bounced.length) {
      await this.events.emit(trx, scope, 'message.bounced', () => ({
        bounce: {
          ...ref,
          type: 'Permanent',
          sub_type: 'General',
          recipients: bounced.map((address) => ({ address, status: 'bounced' })),
        },
      }));
    }
    return { message_id: messageId, thread_id: own.row.thread_id };
  }
}
