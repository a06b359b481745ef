// The inbound SMTP server: accepts mail for existing inboxes of the service's domains only
// (550 at RCPT for anyone else: no open relay), enforces size and recipient limits, and files
// each message into every recipient inbox, labelled received + unread, before answering 250.
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../../platform/logger.js';
import { isAddress } from './addresses.js';
import type { MailSettings } from './settings.js';
import type { Filing } from './filing.js';
import { MalformedMessageError, parseMessage } from './parse.js';
import { SmtpFairShare } from './smtp-limits.js';
import type { InboxRow, Store, Tx } from './store.js';

type SmtpError = Error & { responseCode?: number };
const smtpError = (code: number, message: string): SmtpError => Object.assign(new Error(message), { responseCode: code });

export interface SmtpDeps {
  store: Store;
  /** An inbox by address (cached: every RCPT and every message asks). */
  inbox(inboxId: string, trx?: Tx): Promise<InboxRow | undefined>;
  filing: Filing;
  config: MailSettings;
  logger: Logger;
  isLocalDomain(address: string): boolean;
}

export function createSmtpServer(deps: SmtpDeps): SMTPServer {
  const { config, logger } = deps;
  const fair = new SmtpFairShare(config, () => server);
  const server: SMTPServer = new SMTPServer({
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    disableReverseLookup: true,
    size: config.maxMessageBytes,
    maxClients: config.smtpMaxConnections,
    socketTimeout: config.smtpIdleTimeoutMs,
    // On stop, sessions still open get a second to finish (a sender retries what we drop).
    closeTimeout: 1000,
    logger: false,
    banner: 'Hamlet mail',
    onConnect(session, callback) {
      callback(fair.admit(session));
    },
    onClose(session) {
      fair.release(session);
    },
    onRcptTo(address, session, callback) {
      const addr = address.address.toLowerCase();
      if (session.envelope.rcptTo.length >= config.maxRecipients) {
        return callback(smtpError(452, `4.5.3 Too many recipients (at most ${config.maxRecipients} per message)`));
      }
      if (!isAddress(addr) || !deps.isLocalDomain(addr)) return callback(smtpError(550, `5.7.1 Relaying denied: ${addr} is not a domain of this server`));
      deps.inbox(addr).then(
        (inbox) => callback(inbox ? undefined : smtpError(550, `5.1.1 No such mailbox: ${addr}`)),
        (err) => {
          logger.error({ err }, 'smtp rcpt lookup failed');
          callback(smtpError(451, '4.3.0 Temporary failure, try again'));
        },
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      fair.receiving(session);
      const chunks: Buffer[] = [];
      let length = 0;
      stream.on('data', (c: Buffer) => {
        // Past the limit keep reading (the client is still sending) but stop keeping it.
        if (length <= config.maxMessageBytes) chunks.push(c);
        length += c.length;
      });
      stream.on('error', (err) => callback(err));
      stream.on('end', () => {
        fair.progressed(session);
        if (stream.sizeExceeded || length > config.maxMessageBytes) {
          return callback(smtpError(552, `5.3.4 Message too big (at most ${config.maxMessageBytes} bytes)`));
        }
        const raw = Buffer.concat(chunks, length);
        const rcpts = [...new Set(session.envelope.rcptTo.map((r) => r.address.toLowerCase()))];
        ingest(deps, raw, rcpts).then(
          () => callback(null, 'Message accepted'),
          (err) => {
            if (err instanceof MalformedMessageError) return callback(smtpError(550, `5.6.0 ${err.message}`));
            logger.error({ err }, 'smtp ingest failed');
            callback(smtpError(451, '4.3.0 Temporary failure, try again'));
          },
        );
      });
    },
  });
  return server;
}

/** Files one received message into each recipient inbox, in one transaction. */
async function ingest(deps: Pick<SmtpDeps, 'store' | 'filing' | 'inbox'>, raw: Buffer, inboxIds: string[]): Promise<void> {
  const parsed = await parseMessage(raw, 'hamlet.invalid');
  await deps.store.transaction(async (trx) => {
    for (const id of inboxIds) {
      const inbox = await deps.inbox(id, trx);
      if (!inbox) continue; // deleted since RCPT
      const filed = await deps.filing.file(trx, inbox, parsed, raw, { labels: ['received', 'unread'] });
      if (filed.created) await deps.filing.received(trx, inbox, filed);
    }
  });
}
