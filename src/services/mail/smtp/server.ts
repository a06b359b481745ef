// The inbound SMTP server: accepts mail for existing inboxes of the service's domains only
// (550 at RCPT for anyone else: no open relay), enforces size and recipient limits, and files
// each message into every recipient inbox, labelled received + unread, before answering 250.
// It offers STARTTLS (no AUTH: sending as an inbox is the submission port's, submission.ts).
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import type { Logger } from '../../../platform/logger.js';
import type { Platform } from '../../../platform/service.js';
import type { Trace } from '../../../platform/trace.js';
import type { MailCore } from '../core.js';
import { isAddress } from '../addresses.js';
import type { MailSettings } from '../settings.js';
import type { Filing } from '../messages/filing.js';
import { MalformedMessageError, parseMessage } from '../messages/parse.js';
import { sharedSmtpOptions } from './shared-options.js';
import { readMessage, smtpError, tracedDataCallback, type SmtpError } from './message-data.js';
import type { InboxRow, MailStore, Tx } from '../store/index.js';
import type { Pem } from './self-signed.js';
import { createSubmissionServer } from './submission.js';
import { smtpCertificate } from './tls.js';

export interface SmtpDeps {
  store: MailStore;
  /** An inbox by address (cached: every RCPT and every message asks). */
  inbox(inboxId: string, trx?: Tx): Promise<InboxRow | undefined>;
  filing: Filing;
  config: MailSettings;
  logger: Logger;
  isLocalDomain(address: string): boolean;
  trace: Pick<Trace, 'record'>;
}

function createSmtpServer(deps: SmtpDeps, tls: Pem): SMTPServer {
  const { config, logger } = deps;
  const { options, fair } = sharedSmtpOptions(config, tls, 'Hamlet mail', () => server);
  const server: SMTPServer = new SMTPServer({
    ...options,
    authOptional: true,
    disabledCommands: ['AUTH'],
    onRcptTo(address, session, callback) {
      const addr = address.address.toLowerCase();
      if (session.envelope.rcptTo.length >= config.maxRecipients) {
        return callback(smtpError(452, `4.5.3 Too many recipients (at most ${config.maxRecipients} per message)`));
      }
      if (!isAddress(addr) || !deps.isLocalDomain(addr))
        return callback(smtpError(550, `5.7.1 Relaying denied: ${addr} is not a domain of this server`));
      deps.inbox(addr).then(
        (inbox) => callback(inbox ? undefined : smtpError(550, `5.1.1 No such mailbox: ${addr}`)),
        (err) => {
          logger.error({ err }, 'smtp rcpt lookup failed');
          callback(smtpError(451, '4.3.0 Temporary failure, try again'));
        },
      );
    },
    onData(stream: SMTPServerDataStream, session: SMTPServerSession, callback) {
      const done = tracedDataCallback(deps.trace, 'smtp', session, callback);
      fair.receiving(session);
      readMessage(stream, config.maxMessageBytes)
        .finally(() => fair.progressed(session))
        .then((raw) => ingest(deps, raw, [...new Set(session.envelope.rcptTo.map((r) => r.address.toLowerCase()))]))
        .then(
          () => done(null, 'Message accepted'),
          (err: SmtpError) => {
            if (err.responseCode) return done(err);
            if (err instanceof MalformedMessageError) return done(smtpError(550, `5.6.0 ${err.message}`));
            logger.error({ err }, 'smtp ingest failed');
            done(smtpError(451, '4.3.0 Temporary failure, try again'));
          },
        );
    },
  });
  return server;
}

/** Files one received message into each recipient inbox, in one transaction. */
async function ingest(
  deps: Pick<SmtpDeps, 'store' | 'filing' | 'inbox'>,
  raw: Buffer,
  inboxIds: string[],
): Promise<void> {
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

function listenOn(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(port, host, () => {
      server.server.off('error', reject);
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

const closeServer = (server: SMTPServer) => new Promise<void>((resolve) => server.close(() => resolve()));

/**
 * Listens on the SMTP port and the submission port, and tells the platform mailer the SMTP
 * port's real number (with port 0, in tests, it is known only now), so local mail reaches it.
 */
export async function startSmtp(
  core: MailCore,
  platform: Platform,
): Promise<{ port: number; submissionPort: number; close(): Promise<void> }> {
  const logger = core.logger.child({ part: 'smtp' });
  const tls = smtpCertificate(core.config, platform.config.dataDir, platform.clock.now(), logger);
  const smtp = createSmtpServer(
    {
      store: core.store,
      inbox: core.inbox,
      filing: core.filing,
      config: core.config,
      logger,
      isLocalDomain: (address) => platform.mailer.isLocal(address),
      trace: platform.trace,
    },
    tls,
  );
  const submission = createSubmissionServer(
    {
      core,
      keys: platform.keys,
      logger: logger.child({ port: 'submission' }),
      now: () => platform.clock.now(),
      trace: platform.trace,
    },
    tls,
  );
  for (const server of [smtp, submission]) server.on('error', (err) => logger.error({ err }, 'smtp server error'));
  const port = await listenOn(smtp, core.config.smtpPort, platform.config.host);
  let submissionPort: number;
  try {
    submissionPort = await listenOn(submission, core.config.submissionPort, platform.config.host);
  } catch (err) {
    await closeServer(smtp);
    throw err;
  }
  platform.mailer.deliverLocally({ port });
  return {
    port,
    submissionPort,
    close: async () => void (await Promise.all([closeServer(smtp), closeServer(submission)])),
  };
}
