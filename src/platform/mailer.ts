// The platform mailer: every service hands its outgoing mail here. Each message is composed
// once as a real RFC 5322 message (so its Message-ID is fixed before the first attempt) and
// queued in the durable job table, one job per route:
// - recipients in the domains a local mail server claims (the mail service, at start, with its
//   SMTP port) go to that server, whatever the relay;
// - everyone else goes to HAMLET_SMTP_RELAY; with no relay it is handed to the holder the mail
//   service registers (its outbox, a development catch-all the API lists), or, in a process
//   without one, the job waits and the log says why.
import type { Transporter } from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import type { Kysely } from 'kysely';
import { reachableHost } from './directory.js';
import { mailComposer, nodemailer } from './optional-modules.js';
import type { EventBus } from './events.js';
import type { Jobs } from './jobs.js';
import { RetryLater } from './jobs.js';
import { PermanentError } from './errors.js';
import type { Logger } from './logger.js';
import { MAIL_FAILED, MAIL_SENT, type MailOutcome } from './topics.js';

export type OutgoingMail = Mail.Options;

export interface MailJob {
  route: 'local' | 'relay';
  envelope: { from: string; to: string[] };
  /** The whole message, base64. */
  raw: string;
  /** Opaque data of the sender, echoed in the mailer's sent/failed events (e.g. a message id). */
  meta?: unknown;
}

/** Mail to other domains that cannot leave (no relay), as the mailer hands it to a holder. */
export interface HeldMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  meta?: unknown;
}

/** A message composed by `Mailer.compose`, ready to queue. */
export interface ComposedMail {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  messageId: string;
}

export const MAIL_QUEUE = 'platform.mail';

const NO_RELAY_RETRY_MS = 60_000;

const domainOf = (address: string): string =>
  address
    .slice(address.lastIndexOf('@') + 1)
    .toLowerCase()
    .replace(/>$/, '');

export interface MailerSettings {
  /** The address local servers listen on (HAMLET_HOST). */
  host: string;
  relay?: { host: string; port: number; secure: boolean; user?: string; pass?: string };
}

export class Mailer {
  private readonly localDomains = new Set<string>();
  private localPort?: number;
  private localTransport?: Transporter;
  private relayTransport?: Transporter;
  private holder?: (mail: HeldMail) => Promise<void>;

  constructor(
    private readonly settings: MailerSettings,
    private readonly jobs: Jobs,
    private readonly events: EventBus,
    private readonly logger: Logger,
  ) {}

  /**
   * A local mail server (the mail service) claims its domains and says where it listens; its
   * port may change once it has started (port 0 picks a free one).
   */
  deliverLocally(server: { domains?: string[]; port: number }): void {
    for (const d of server.domains ?? []) this.localDomains.add(d.toLowerCase());
    if (server.port !== this.localPort) {
      this.localPort = server.port;
      this.localTransport?.close();
      this.localTransport = undefined;
    }
  }

  /** The mail service adds the domains it creates at run time. */
  addLocalDomain(domain: string): void {
    this.localDomains.add(domain.toLowerCase());
  }

  /** Whether mail to other domains can leave (HAMLET_SMTP_RELAY is set). */
  get hasRelay(): boolean {
    return !!this.settings.relay;
  }

  /**
   * Who keeps mail to other domains while no relay is set (the mail service's outbox); it must
   * store the message durably before returning, since the job then ends.
   */
  holdOutsideMail(holder: ((mail: HeldMail) => Promise<void>) | undefined): void {
    this.holder = holder;
  }

  /**
   * Whether mail to other domains reaches someone while no relay is set: a holder (the mail
   * outbox, where the operator reads it) runs in this process. Callers that would otherwise
   * print a link for the developer (the blog's verification link) stay quiet then: the log is
   * no place for a credential the outbox already keeps.
   */
  get holdsOutsideMail(): boolean {
    return this.holder !== undefined;
  }

  isLocal(address: string): boolean {
    return this.localDomains.has(domainOf(address));
  }

  /**
   * Composes a message as it will be sent. Building MIME awaits streams, so compose before a
   * transaction and queue inside it (a transaction awaits only its statements).
   */
  async compose(mail: OutgoingMail): Promise<ComposedMail> {
    const node = new (mailComposer())(mail).compile();
    const raw = await node.build();
    const envelope = node.getEnvelope();
    return { envelope: { from: envelope.from || '', to: envelope.to }, raw, messageId: node.messageId() };
  }

  /** Composes a message and queues it at once. Returns its Message-ID. */
  async send(mail: OutgoingMail, opts: { meta?: unknown } = {}): Promise<{ messageId: string; raw: Buffer }> {
    const composed = await this.compose(mail);
    await this.queue(composed, opts);
    return { messageId: composed.messageId, raw: composed.raw };
  }

  /** Queues a composed message. Pass the caller's transaction to send only if it commits. */
  queue(composed: ComposedMail, opts: { meta?: unknown; trx?: Kysely<any> } = {}): Promise<void> {
    return this.sendRaw(composed.envelope, composed.raw, opts);
  }

  /** Queues an already composed message for the given envelope. */
  async sendRaw(
    envelope: { from: string; to: string[] },
    raw: Buffer,
    opts: { meta?: unknown; trx?: Kysely<any> } = {},
  ): Promise<void> {
    const local = envelope.to.filter((a) => this.isLocal(a));
    const remote = envelope.to.filter((a) => !this.isLocal(a));
    const base64 = raw.toString('base64');
    for (const [route, to] of [
      ['local', local],
      ['relay', remote],
    ] as const) {
      if (!to.length) continue;
      const job: MailJob = { route, envelope: { from: envelope.from, to }, raw: base64, meta: opts.meta };
      await this.jobs.enqueue(MAIL_QUEUE, job, {}, opts.trx);
    }
  }

  /** Registers the delivery worker. */
  registerWorker(): void {
    this.jobs.register<MailJob>(MAIL_QUEUE, (job) => this.deliver(job), {
      concurrency: 8,
      maxAttempts: 8,
      onFailed: async (job, error) => {
        const outcome: MailOutcome = {
          route: job.route,
          envelope: job.envelope,
          meta: job.meta,
          error: error.message,
          responseCode: (error as { responseCode?: number }).responseCode,
        };
        await this.events.publish(MAIL_FAILED, outcome);
      },
    });
  }

  private transportFor(route: MailJob['route']): Transporter | undefined {
    if (route === 'local') {
      if (this.localPort === undefined) return undefined;
      this.localTransport ??= nodemailer().createTransport({
        host: reachableHost(this.settings.host),
        port: this.localPort,
        secure: false,
        ignoreTLS: true,
      });
      return this.localTransport;
    }
    const relay = this.settings.relay;
    if (!relay) return undefined;
    this.relayTransport ??= nodemailer().createTransport({
      host: relay.host,
      port: relay.port,
      secure: relay.secure,
      auth: relay.user ? { user: relay.user, pass: relay.pass ?? '' } : undefined,
      // A relay on a private network often has a self-signed certificate; it is the operator's own.
      tls: { rejectUnauthorized: false },
    });
    return this.relayTransport;
  }

  private async deliver(job: MailJob): Promise<void> {
    const transport = this.transportFor(job.route);
    if (!transport && job.route === 'local') {
      // Queued by a process whose mail server is not up yet (or runs elsewhere): try again soon.
      throw new RetryLater(NO_RELAY_RETRY_MS, 'no local mail server has said where it listens yet');
    }
    if (!transport && this.holder) {
      await this.holder({ envelope: job.envelope, raw: Buffer.from(job.raw, 'base64'), meta: job.meta });
      this.logger.info(
        { to: job.envelope.to },
        'outgoing mail held in the mail outbox: HAMLET_SMTP_RELAY is not set (read it with GET /v0/outbox or `hamlet mail outbox`)',
      );
      return;
    }
    if (!transport) {
      this.logger.warn(
        { to: job.envelope.to },
        'outgoing mail stays queued: HAMLET_SMTP_RELAY is not set, so mail to other domains cannot leave',
      );
      throw new RetryLater(NO_RELAY_RETRY_MS, 'HAMLET_SMTP_RELAY is not set');
    }
    try {
      await transport.sendMail({ envelope: job.envelope, raw: Buffer.from(job.raw, 'base64') });
    } catch (e) {
      const err = e as Error & { responseCode?: number };
      // A 5xx answer is the receiving server's final word: retrying cannot change it.
      if (err.responseCode && err.responseCode >= 500) {
        const permanent = new PermanentError(err.message);
        (permanent as PermanentError & { responseCode?: number }).responseCode = err.responseCode;
        throw permanent;
      }
      throw err;
    }
    const outcome: MailOutcome = { route: job.route, envelope: job.envelope, meta: job.meta };
    await this.events.publish(MAIL_SENT, outcome);
  }

  close(): void {
    this.localTransport?.close();
    this.relayTransport?.close();
  }
}
