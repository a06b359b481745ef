// What the inbound port (server.ts) and the submission port (submission.ts) have in common:
// STARTTLS with the service's certificate, the message size cap, the connection caps and each
// address's fair share, no reverse DNS lookups, and a second's grace for open sessions on stop
// (a sender retries what we drop).
import type { SMTPServer, SMTPServerOptions } from 'smtp-server';
import type { MailSettings } from '../settings.js';
import { SmtpFairShare } from './fair-share.js';
import type { Pem } from './self-signed.js';

/** The shared options, and the fair share their onConnect/onClose keep (DATA handlers report progress to it). */
export function sharedSmtpOptions(
  config: MailSettings,
  tls: Pem,
  banner: string,
  server: () => SMTPServer,
): { options: SMTPServerOptions; fair: SmtpFairShare } {
  const fair = new SmtpFairShare(config, server);
  const options: SMTPServerOptions = {
    secure: false,
    key: tls.key,
    cert: tls.cert,
    disableReverseLookup: true,
    size: config.maxMessageBytes,
    maxClients: config.smtpMaxConnections,
    socketTimeout: config.smtpIdleTimeoutMs,
    closeTimeout: 1000,
    logger: false,
    banner,
    onConnect(session, callback) {
      callback(fair.admit(session));
    },
    onClose(session) {
      fair.release(session);
    },
  };
  return { options, fair };
}
