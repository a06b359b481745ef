// Settings of the mail service, read from the environment (the platform's config carries the
// shared ones: ports, MAIL_DOMAIN, HAMLET_SMTP_RELAY).
import { ConfigError, parseDuration } from '../../config.js';
import { parseSchedule, SVIX_SCHEDULE_MS } from './webhooks/deliver.js';

export interface MailConfig {
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
}

export function loadMailConfig(env: Record<string, string | undefined>): MailConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min) {
      problems.push(`${name}=${raw}: expected a whole number of at least ${min}`);
      return fallback;
    }
    return Number(raw);
  };
  const maxMessageBytes = int('MAIL_MAX_MESSAGE_BYTES', 6 * 1024 * 1024, 1024);
  const maxRecipients = int('MAIL_MAX_RECIPIENTS', 50, 1);
  const webhookTimeoutMs = int('MAIL_WEBHOOK_TIMEOUT_MS', 15_000, 100);
  const smtpMaxConnections = int('MAIL_SMTP_MAX_CONNECTIONS', 200, 1);
  // The platform mailer delivers local mail with up to 8 connections from this host's address.
  const smtpMaxPerAddress = int('MAIL_SMTP_MAX_PER_ADDRESS', 20, 1);
  if (smtpMaxPerAddress > smtpMaxConnections) problems.push(`MAIL_SMTP_MAX_PER_ADDRESS=${smtpMaxPerAddress}: must not exceed MAIL_SMTP_MAX_CONNECTIONS (${smtpMaxConnections})`);
  const smtpMaxNoops = int('MAIL_SMTP_MAX_NOOPS', 20, 1);
  const wsMaxBufferedBytes = int('MAIL_WS_MAX_BUFFER', 4 * 1024 * 1024, 1024);
  let smtpIdleTimeoutMs = 60_000;
  if (env.MAIL_SMTP_IDLE_TIMEOUT) {
    const ms = parseDuration(env.MAIL_SMTP_IDLE_TIMEOUT);
    if (ms !== undefined && ms >= 100) smtpIdleTimeoutMs = ms;
    else problems.push(`MAIL_SMTP_IDLE_TIMEOUT=${env.MAIL_SMTP_IDLE_TIMEOUT}: expected a duration of at least 100ms, e.g. 60s or 5m`);
  }
  let publicUrl = env.MAIL_PUBLIC_URL || undefined;
  if (publicUrl) {
    try {
      const u = new URL(publicUrl);
      if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
      publicUrl = publicUrl.replace(/\/$/, '');
    } catch {
      problems.push(`MAIL_PUBLIC_URL=${publicUrl}: expected an http or https URL`);
    }
  }
  let webhookRetryScheduleMs = SVIX_SCHEDULE_MS;
  if (env.MAIL_WEBHOOK_RETRY_SCHEDULE) {
    const parsed = parseSchedule(env.MAIL_WEBHOOK_RETRY_SCHEDULE, parseDuration);
    if (parsed) webhookRetryScheduleMs = parsed;
    else problems.push(`MAIL_WEBHOOK_RETRY_SCHEDULE=${env.MAIL_WEBHOOK_RETRY_SCHEDULE}: expected durations separated by commas, e.g. 5s,5m,30m,2h`);
  }
  if (problems.length) throw new ConfigError(problems);
  return {
    maxMessageBytes,
    maxRecipients,
    publicUrl,
    webhookTimeoutMs,
    webhookRetryScheduleMs,
    smtpMaxConnections,
    smtpMaxPerAddress,
    smtpIdleTimeoutMs,
    smtpMaxNoops,
    wsMaxBufferedBytes,
  };
}
