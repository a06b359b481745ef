// Fair shares of the SMTP port. smtp-server caps the connections of all clients together
// (maxClients) and closes a socket that sends nothing, but any command, a NOOP included, keeps
// a session alive, so one address could hold every slot and everyone else got "421 Too many
// connected clients". This adds what it lacks:
// - a share per client address: a connection past it is refused at the greeting, so other
//   addresses (and the platform mailer, which delivers local mail from this host) keep theirs;
// - a bound on a session that makes no progress: it must complete a message within the idle
//   timeout of its start or of its previous message, whatever it chatters meanwhile;
// - a count of NOOP, RSET, HELP and VRFY between two messages, which a real client needs a
//   handful of, so a chattering session is closed without waiting for the timeout.
import type { SMTPServer, SMTPServerSession } from 'smtp-server';
import type { MailSettings } from '../settings.js';

export type SmtpLimits = Pick<MailSettings, 'smtpMaxPerAddress' | 'smtpIdleTimeoutMs' | 'smtpMaxNoops'>;

/** Commands that do nothing for delivery; a session may send a few between messages. */
const CHATTER = ['NOOP', 'RSET', 'HELP', 'VRFY'] as const;

/** What this module uses of smtp-server's connection object (public methods, not in its typings). */
interface Connection {
  id: string;
  session: SMTPServerSession;
  /** Sends a reply; a 421 also closes the connection. */
  send(code: number, text: string, context?: string | false): void;
  [handler: `handler_${string}`]: ((command: Buffer, callback: () => void) => void) | undefined;
}

interface Tracked {
  address: string;
  connection?: Connection;
  deadline?: NodeJS.Timeout;
  chatter: number;
}

type RefusalError = Error & { responseCode: number };

export class SmtpFairShare {
  private readonly perAddress = new Map<string, number>();
  private readonly sessions = new Map<string, Tracked>();

  constructor(
    private readonly limits: SmtpLimits,
    private readonly server: () => SMTPServer,
  ) {}

  /** For onConnect: takes a slot of the client's address, or the refusal to answer with. */
  admit(session: SMTPServerSession): RefusalError | undefined {
    const address = session.remoteAddress;
    const held = this.perAddress.get(address) ?? 0;
    if (held >= this.limits.smtpMaxPerAddress) {
      return Object.assign(
        new Error(`Too many connections from your address (at most ${this.limits.smtpMaxPerAddress}), try again later`),
        { responseCode: 421 },
      );
    }
    this.perAddress.set(address, held + 1);
    const tracked: Tracked = { address, chatter: 0, connection: this.connectionOf(session) };
    this.sessions.set(session.id, tracked);
    if (tracked.connection) this.countChatter(tracked, tracked.connection);
    this.arm(tracked);
    return undefined;
  }

  /** A message is arriving: the time it takes is not idleness. */
  receiving(session: SMTPServerSession): void {
    const tracked = this.sessions.get(session.id);
    if (tracked) clearTimeout(tracked.deadline);
  }

  /** A message was received in full (accepted or not): the session made progress. */
  progressed(session: SMTPServerSession): void {
    const tracked = this.sessions.get(session.id);
    if (!tracked) return;
    tracked.chatter = 0;
    this.arm(tracked);
  }

  /** For onClose: gives the slot back. Refused connections close too, and were never counted. */
  release(session: SMTPServerSession): void {
    const tracked = this.sessions.get(session.id);
    if (!tracked) return;
    this.sessions.delete(session.id);
    clearTimeout(tracked.deadline);
    const held = (this.perAddress.get(tracked.address) ?? 1) - 1;
    if (held > 0) this.perAddress.set(tracked.address, held);
    else this.perAddress.delete(tracked.address);
  }

  /** Open sessions per address (for tests and the soak report). */
  held(address: string): number {
    return this.perAddress.get(address) ?? 0;
  }

  private arm(tracked: Tracked): void {
    clearTimeout(tracked.deadline);
    tracked.deadline = setTimeout(() => {
      tracked.connection?.send(
        421,
        `Timeout - no message completed in ${Math.round(this.limits.smtpIdleTimeoutMs / 1000)} s, closing connection`,
      );
    }, this.limits.smtpIdleTimeoutMs);
    tracked.deadline.unref();
  }

  private connectionOf(session: SMTPServerSession): Connection | undefined {
    for (const c of this.server().connections as unknown as Set<Connection>) if (c.session === session) return c;
    return undefined;
  }

  /** Wraps this connection's chatter handlers with a count (smtp-server looks handlers up by name). */
  private countChatter(tracked: Tracked, connection: Connection): void {
    for (const command of CHATTER) {
      const name = `handler_${command}` as const;
      const original = connection[name];
      if (typeof original !== 'function') continue;
      connection[name] = (line, callback) => {
        if (++tracked.chatter > this.limits.smtpMaxNoops) {
          connection.send(
            421,
            `Too many ${CHATTER.join('/')} commands without a message (at most ${this.limits.smtpMaxNoops}), closing connection`,
          );
          return callback();
        }
        original.call(connection, line, callback);
      };
    }
  }
}
