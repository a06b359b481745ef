// The outbox: mail to other domains while no relay is set (HAMLET_SMTP_RELAY), held where the
// operator can read it, like Mailpit's capture, instead of bounced or lost. Three ways in:
// - a send from an inbox (API, SMTP submission, a scheduled draft): held in the sender's
//   transaction, its sent copy labelled `queued`;
// - the platform's own mail (the blog's verification mail): the platform mailer hands it over
//   (Mailer.holdOutsideMail) when its relay job finds no relay.
// One way out: started with a relay, Hamlet hands every held message to the platform mailer
// (`release`), which relays it; the relay's answer then labels it delivered or bounced.
import { createHash } from 'node:crypto';
import type { Logger } from '../../../platform/logger.js';
import type { HeldMail, Mailer } from '../../../platform/mailer.js';
import type { Clock } from '../../../platform/clock.js';
import { uuid } from '../../../platform/ids.js';
import type { Filing } from '../messages/filing.js';
import { parseMessage, type ParsedMessage } from '../messages/parse.js';
import type { InboxRow, MailStore, OutboxItemRow, OutboxRow, Tx } from '../store/index.js';

/** What the API and the CLI show of a held message. */
export interface OutboxItem {
  outbox_id: string;
  /** Always `queued`: the message waits for a relay. */
  status: 'queued';
  /** `inbox`: sent from a Hamlet inbox; `platform`: Hamlet's own mail (blog verification). */
  source: 'inbox' | 'platform';
  inbox_id?: string;
  message_id: string;
  from: string;
  to: string[];
  subject?: string;
  text?: string;
  html?: string;
  created_at: string;
}

export function outboxItem(row: OutboxItemRow): OutboxItem {
  return {
    outbox_id: row.outbox_id,
    status: 'queued',
    source: row.inbox_id ? 'inbox' : 'platform',
    ...(row.inbox_id ? { inbox_id: row.inbox_id } : {}),
    message_id: row.message_id,
    from: row.mail_from,
    to: JSON.parse(row.rcpt_to) as string[],
    ...(row.subject != null ? { subject: row.subject } : {}),
    ...(row.text_body != null ? { text: row.text_body } : {}),
    ...(row.html_body != null ? { html: row.html_body } : {}),
    created_at: row.created_at,
  };
}

export const QUEUED_LABEL = 'queued';

export class Outbox {
  constructor(
    private readonly store: MailStore,
    private readonly filing: Filing,
    private readonly mailer: Mailer,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  /** Holds mail an inbox sent to other domains, in the sender's transaction. */
  async holdSent(
    trx: Tx,
    sent: { inbox: InboxRow; messageRowId: string; parsed: ParsedMessage; raw: Buffer; to: string[]; meta: unknown },
  ): Promise<void> {
    await this.store.outbox.insert(
      this.row(
        {
          org_id: sent.inbox.org_id,
          inbox_id: sent.inbox.inbox_id,
          message_row_id: sent.messageRowId,
          mail_from: sent.inbox.inbox_id,
          to: sent.to,
          raw: sent.raw,
          meta: sent.meta,
        },
        sent.parsed,
      ),
      trx,
    );
    this.logger.info(
      { inbox: sent.inbox.inbox_id, to: sent.to },
      'mail to other domains held in the outbox: HAMLET_SMTP_RELAY is not set (GET /v0/outbox, `hamlet mail outbox`); it is sent when Hamlet starts with a relay',
    );
  }

  /**
   * Holds the platform's own mail (Mailer.holdOutsideMail): it has no inbox and no
   * organization. Its id is derived from the message and its recipients, so a mailer job run
   * again after a crash between this insert and the job's end holds it once.
   */
  async holdPlatformMail(mail: HeldMail): Promise<void> {
    const parsed = await parseMessage(mail.raw, 'hamlet.invalid');
    const row = this.row(
      {
        org_id: null,
        inbox_id: null,
        message_row_id: null,
        mail_from: mail.envelope.from,
        to: mail.envelope.to,
        raw: mail.raw,
        meta: mail.meta,
      },
      parsed,
    );
    row.outbox_id = createHash('sha256')
      .update(`${parsed.messageId}\n${mail.envelope.to.join(',')}`)
      .digest('base64url')
      .slice(0, 32);
    await this.store.outbox.insert(row);
  }

  /**
   * With a relay: hands every held message to the platform mailer, each in a transaction that
   * takes it out of the outbox (so two instances starting together send it once) and drops
   * its `queued` label. Returns how many left.
   */
  async release(): Promise<number> {
    if (!this.mailer.hasRelay) return 0;
    let sent = 0;
    for (const id of await this.store.outbox.ids()) {
      const released = await this.store.transaction(async (trx) => {
        const row = await this.store.outbox.get(id, trx);
        if (!row || !(await this.store.outbox.take(id, trx))) return false;
        await this.mailer.sendRaw(
          { from: row.mail_from, to: JSON.parse(row.rcpt_to) as string[] },
          Buffer.from(row.raw),
          { meta: row.meta ? (JSON.parse(row.meta) as unknown) : undefined, trx },
        );
        const message = row.message_row_id ? await this.store.messages.byId(row.message_row_id, trx) : undefined;
        if (message) await this.filing.relabel(trx, message, [], [QUEUED_LABEL]);
        return true;
      });
      if (released) sent++;
    }
    if (sent) this.logger.info({ count: sent }, 'held mail from the outbox handed to the relay (HAMLET_SMTP_RELAY)');
    return sent;
  }

  private row(
    from: Pick<OutboxRow, 'org_id' | 'inbox_id' | 'message_row_id' | 'mail_from' | 'raw'> & {
      to: string[];
      meta: unknown;
    },
    parsed: ParsedMessage,
  ): OutboxRow {
    return {
      outbox_id: uuid(),
      org_id: from.org_id,
      inbox_id: from.inbox_id,
      message_row_id: from.message_row_id,
      message_id: parsed.messageId,
      mail_from: from.mail_from,
      rcpt_to: JSON.stringify(from.to),
      subject: parsed.subject ?? null,
      text_body: parsed.text ?? null,
      html_body: parsed.html ?? null,
      raw: from.raw,
      meta: from.meta === undefined ? null : JSON.stringify(from.meta),
      created_at: this.clock.now().toISOString(),
    };
  }
}
