// The mail service's settings (MAIL_*, SMTP_PORT), read with the platform's kit.
import { parseDuration, type SettingsKit } from '../../platform/settings.js';
import { parseSchedule, SVIX_SCHEDULE_MS } from './webhooks/schedule.js';

export interface MailSettings {
  /** The HTTP API's port. */
  port: number;
  /** The SMTP server's port (mail to our inboxes; STARTTLS offered, no AUTH). */
  smtpPort: number;
  /** The submission port (587-style): STARTTLS, then AUTH with a mail key, then send as an inbox. */
  submissionPort: number;
  /** PEM certificate and key files for STARTTLS; both unset: a self-signed pair in the data dir. */
  tlsCertFile?: string;
  tlsKeyFile?: string;
  /** The mail service's own domains: mail to them is delivered to our own SMTP port. */
  domains: string[];
  /** Largest message accepted, over SMTP and as a send request body (bytes). */
  maxMessageBytes: number;
  /** Most recipients (to + cc + bcc) per message, over the API and over SMTP. */
  maxRecipients: number;
  /** Base URL put into download links; the API's own listen URL when unset. */
  publicUrl?: string;
  /** How long a webhook receiver may take before the attempt counts as failed. */
  webhookTimeoutMs: number;
  /** Waits between webhook attempts; its length + 1 is the number of attempts. */
  webhookRetryScheduleMs: number[];
  /** SMTP connections open at once, from all addresses together. */
  smtpMaxConnections: number;
  /** SMTP connections one client address may hold, so one address cannot take every slot. */
  smtpMaxPerAddress: number;
  /** How long an SMTP session may go without completing a message (NOOPs do not count). */
  smtpIdleTimeoutMs: number;
  /** NOOP, RSET, HELP and VRFY commands a session may send between two messages. */
  smtpMaxNoops: number;
  /** Outgoing bytes a WebSocket client may have queued before it is cut off. */
  wsMaxBufferedBytes: number;
  /** The host name custom domains must point their MX record at (this server's SMTP side). */
  mxHost: string;
  /** DNS servers that domain verification asks (`host` or `host:port`); the system's when empty. */
  dnsResolvers: string[];
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address, as node:dns setServers takes them. */
const RESOLVER = /^(?:\[[0-9a-f:.]+\](?::\d{1,5})?|[0-9a-f:]+:[0-9a-f:]*|[a-z0-9.-]+(?::\d{1,5})?)$/i;

function dnsResolvers(kit: SettingsKit): string[] {
  const list = kit.list('MAIL_DNS_RESOLVER');
  for (const r of list)
    if (!RESOLVER.test(r))
      kit.problem(`MAIL_DNS_RESOLVER=${r}: expected host or host:port (comma-separated for several)`);
  return list.filter((r) => RESOLVER.test(r));
}

export function readMailSettings(kit: SettingsKit): MailSettings {
  const smtpMaxConnections = kit.count('MAIL_SMTP_MAX_CONNECTIONS', 200, 1);
  const smtpMaxPerAddress = kit.count('MAIL_SMTP_MAX_PER_ADDRESS', 20, 1);
  if (smtpMaxPerAddress > smtpMaxConnections)
    kit.problem(
      `MAIL_SMTP_MAX_PER_ADDRESS=${smtpMaxPerAddress}: must not exceed MAIL_SMTP_MAX_CONNECTIONS (${smtpMaxConnections})`,
    );
  return {
    port: kit.port('MAIL_PORT', 4100, 'mail-port'),
    smtpPort: kit.port('SMTP_PORT', 2525, 'smtp-port'),
    submissionPort: kit.port('MAIL_SUBMISSION_PORT', 2587, 'submission-port'),
    ...tlsFiles(kit),
    domains: kit.hostnames('MAIL_DOMAIN', 'mail.localhost', 'mail-domain'),
    maxMessageBytes: kit.count('MAIL_MAX_MESSAGE_BYTES', 6 * 1024 * 1024, 1024),
    maxRecipients: kit.count('MAIL_MAX_RECIPIENTS', 50, 1),
    publicUrl: kit.baseUrl('MAIL_PUBLIC_URL'),
    webhookTimeoutMs: kit.count('MAIL_WEBHOOK_TIMEOUT_MS', 15_000, 100),
    webhookRetryScheduleMs: kit.parsed(
      'MAIL_WEBHOOK_RETRY_SCHEDULE',
      SVIX_SCHEDULE_MS,
      (raw) => parseSchedule(raw, parseDuration),
      'expected durations separated by commas, e.g. 5s,5m,30m,2h',
    ),
    smtpMaxConnections,
    smtpMaxPerAddress,
    smtpIdleTimeoutMs: kit.duration('MAIL_SMTP_IDLE_TIMEOUT', 60_000, 100),
    smtpMaxNoops: kit.count('MAIL_SMTP_MAX_NOOPS', 20, 1),
    wsMaxBufferedBytes: kit.count('MAIL_WS_MAX_BUFFER', 4 * 1024 * 1024, 1024),
    mxHost: kit.hostname('MAIL_MX_HOST', kit.hostnames('MAIL_DOMAIN', 'mail.localhost')[0]),
    dnsResolvers: dnsResolvers(kit),
  };
}

/** MAIL_SMTP_TLS_CERT and MAIL_SMTP_TLS_KEY go together: a certificate without its key is a mistake. */
function tlsFiles(kit: SettingsKit): Pick<MailSettings, 'tlsCertFile' | 'tlsKeyFile'> {
  const cert = kit.raw('MAIL_SMTP_TLS_CERT');
  const key = kit.raw('MAIL_SMTP_TLS_KEY');
  if (!cert !== !key)
    kit.problem(
      `MAIL_SMTP_TLS_CERT and MAIL_SMTP_TLS_KEY: set both (PEM files) or neither (a self-signed certificate is made in the data directory)`,
    );
  return cert && key ? { tlsCertFile: cert, tlsKeyFile: key } : {};
}
