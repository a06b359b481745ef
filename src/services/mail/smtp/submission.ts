// The submission port (587-style, MAIL_SUBMISSION_PORT): how swaks, msmtp or a mail client send
// through an inbox. STARTTLS first (AUTH before it is refused: 538), then AUTH PLAIN or LOGIN
// with the inbox's address as the user name and a mail API key as the password; the key must
// belong to the inbox's organization. The user name picks the inbox because one key may reach
// many. The message is then sent as that inbox, exactly as an API send: the sender's copy is
// filed in its sent thread, our own inboxes get theirs at once, other domains go to the relay
// or, without one, to the outbox. MAIL FROM and the From: header must be the inbox.
import { SMTPServer, type SMTPServerAuthentication, type SMTPServerSession } from 'smtp-server';
import { DomainError } from '../../../platform/errors.js';
import { uuid } from '../../../platform/ids.js';
import type { Logger } from '../../../platform/logger.js';
import type { Keys } from '../../../platform/keys.js';
import type { Trace } from '../../../platform/trace.js';
import type { MailCore } from '../core.js';
import { orgOfKey } from '../identity/scope.js';
import { bareAddress, domainOf, isAddress } from '../addresses.js';
import { MalformedMessageError, parseMessage } from '../messages/parse.js';
import type { Pem } from './self-signed.js';
import { sharedSmtpOptions } from './shared-options.js';
import { readMessage, smtpError, tracedDataCallback, type SmtpError } from './message-data.js';

export interface SubmissionDeps {
  core: Pick<MailCore, 'store' | 'inbox' | 'sending' | 'config'>;
  keys: Pick<Keys, 'verify'>;
  logger: Logger;
  now(): Date;
  trace: Pick<Trace, 'record'>;
}

const BAD_CREDENTIALS =
  '5.7.8 Authentication credentials invalid (user name: the inbox address; password: a mail API key of its organization)';

/** Adds the Message-ID and Date a submission client may leave to the server (RFC 6409 §8). */
function completeHeaders(raw: Buffer, domain: string, now: Date): Buffer {
  const end = raw.indexOf('\r\n\r\n');
  const head = raw.subarray(0, end < 0 ? raw.length : end).toString('latin1');
  const missing: string[] = [];
  if (!/^message-id:/im.test(head)) missing.push(`Message-ID: <${uuid()}@${domain}>`);
  if (!/^date:/im.test(head)) missing.push(`Date: ${now.toUTCString().replace('GMT', '+0000')}`);
  return missing.length ? Buffer.concat([Buffer.from(missing.join('\r\n') + '\r\n'), raw]) : raw;
}

export function createSubmissionServer(deps: SubmissionDeps, tls: Pem): SMTPServer {
  const { core, logger } = deps;
  const { config } = core;

  /** The id of the key each session authenticated with, for the trace. */
  const keyIds = new WeakMap<SMTPServerSession, string>();

  async function authenticate(auth: SMTPServerAuthentication, session: SMTPServerSession): Promise<string | undefined> {
    const inboxId = (auth.username ?? '').trim().toLowerCase();
    const key = await deps.keys.verify('mail', auth.password ?? undefined);
    if (!key || !isAddress(inboxId)) return undefined;
    const inbox = await core.inbox(inboxId);
    if (!inbox || inbox.org_id !== orgOfKey(key)) return undefined;
    keyIds.set(session, key.id);
    return inbox.inbox_id;
  }

  async function submit(raw: Buffer, session: SMTPServerSession): Promise<string> {
    const inbox = await core.inbox(String(session.user));
    if (!inbox) throw smtpError(550, '5.7.1 The authenticated inbox no longer exists');
    const complete = completeHeaders(raw, domainOf(inbox.inbox_id), deps.now());
    const parsed = await parseMessage(complete, domainOf(inbox.inbox_id));
    if (bareAddress(parsed.from) !== inbox.inbox_id)
      throw smtpError(550, `5.7.1 From: must be the authenticated inbox ${inbox.inbox_id}`);
    // The envelope says who gets it; the headers only say who is shown as To and Cc.
    const rcpts = [...new Set(session.envelope.rcptTo.map((r) => r.address.toLowerCase()))];
    const inHeader = (list: string[]) => new Set(list.map(bareAddress));
    const shownTo = inHeader(parsed.to);
    const shownCc = inHeader(parsed.cc);
    const to = rcpts.filter((a) => shownTo.has(a));
    const cc = rcpts.filter((a) => !shownTo.has(a) && shownCc.has(a));
    const bcc = rcpts.filter((a) => !shownTo.has(a) && !shownCc.has(a));
    const prepared = { inbox, to, cc, bcc, messageId: parsed.messageId, raw: complete, parsed, labels: [] };
    await core.store.transaction((trx) => core.sending.write(prepared, trx));
    return parsed.messageId;
  }

  const { options, fair } = sharedSmtpOptions(config, tls, 'Hamlet mail submission', () => server);
  const server: SMTPServer = new SMTPServer({
    ...options,
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: false,
    authOptional: false,
    onAuth(auth, session, callback) {
      authenticate(auth, session).then(
        (user) => (user ? callback(null, { user }) : callback(smtpError(535, BAD_CREDENTIALS))),
        (err) => {
          logger.error({ err }, 'smtp submission: checking credentials failed');
          callback(smtpError(454, '4.7.0 Temporary authentication failure'));
        },
      );
    },
    onMailFrom(address, session, callback) {
      const from = address.address.toLowerCase();
      callback(
        from === session.user
          ? undefined
          : smtpError(553, `5.7.1 Sender address rejected: this session sends as ${String(session.user)}`),
      );
    },
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length >= config.maxRecipients) {
        return callback(smtpError(452, `4.5.3 Too many recipients (at most ${config.maxRecipients} per message)`));
      }
      callback(
        isAddress(address.address)
          ? undefined
          : smtpError(553, `5.1.3 Bad recipient address syntax: ${address.address}`),
      );
    },
    onData(stream, session, callback) {
      const done = tracedDataCallback(deps.trace, 'submission', session, callback, keyIds.get(session));
      fair.receiving(session);
      readMessage(stream, config.maxMessageBytes)
        .finally(() => fair.progressed(session))
        .then((raw) => submit(raw, session))
        .then(
          (messageId) => done(null, `Message queued as ${messageId}`),
          (err: SmtpError) => {
            if (err.responseCode) return done(err);
            if (err instanceof MalformedMessageError) return done(smtpError(550, `5.6.0 ${err.message}`));
            // An agent's unverified organization: a recipient it may not write to, or its day's sends spent.
            if (err instanceof DomainError && err.kind === 'forbidden')
              return done(smtpError(550, `5.7.1 ${err.message}`));
            if (err instanceof DomainError && err.kind === 'limited')
              return done(smtpError(451, `4.7.1 ${err.message}`));
            logger.error({ err }, 'smtp submission failed');
            done(smtpError(451, '4.3.0 Temporary failure, try again'));
          },
        );
    },
  });
  return server;
}
