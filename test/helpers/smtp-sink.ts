// A real SMTP server for tests: stands in for HAMLET_SMTP_RELAY and keeps what it receives,
// parsed with mailparser. It can refuse mail (4xx/5xx) to test retries and bounces.
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { withDeadline } from './wait.js';

export interface SmtpSink {
  url: string;
  port: number;
  messages: Array<{ envelope: { from: string; to: string[] }; raw: string; parsed: ParsedMail }>;
  /** Resolves with the first message (arrived or arriving) that matches. */
  waitFor(
    match: (m: SmtpSink['messages'][number]) => boolean,
    timeoutMs?: number,
  ): Promise<SmtpSink['messages'][number]>;
  /** Answer the next DATA commands with this SMTP error instead of accepting. */
  refuse(code: number | undefined, message?: string): void;
  close(): Promise<void>;
}

export async function startSmtpSink(port = 0): Promise<SmtpSink> {
  const messages: SmtpSink['messages'] = [];
  const waiters: Array<{
    match: (m: SmtpSink['messages'][number]) => boolean;
    resolve: (m: SmtpSink['messages'][number]) => void;
  }> = [];
  let refusal: { code: number; message: string } | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      // A message the parser cannot read is refused, not left without a reply.
      stream.on(
        'end',
        () =>
          void (async () => {
            if (refusal) {
              const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
              return callback(err);
            }
            const raw = Buffer.concat(chunks).toString('utf8');
            const parsed = await simpleParser(raw);
            const m = {
              envelope: {
                from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                to: session.envelope.rcptTo.map((r) => r.address),
              },
              raw,
              parsed,
            };
            messages.push(m);
            for (const w of [...waiters]) {
              if (w.match(m)) {
                waiters.splice(waiters.indexOf(w), 1);
                w.resolve(m);
              }
            }
            callback();
          })().catch((err: Error) => callback(err)),
      );
    },
  });
  // A client killed mid-session (the kill -9 tests) resets its connection; smtp-server reports
  // that as an 'error' event, which with no listener would crash the test run. A sink only
  // records what arrived, so a dropped client is not its concern.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  const realPort = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${realPort}`,
    port: realPort,
    messages,
    waitFor(match, timeoutMs = 10_000) {
      const found = messages.find(match);
      if (found) return Promise.resolve(found);
      const waiter = { match, resolve: (_: SmtpSink['messages'][number]) => {} };
      const arrived = new Promise<SmtpSink['messages'][number]>((resolve) => {
        waiter.resolve = resolve;
        waiters.push(waiter);
      });
      return withDeadline(arrived, timeoutMs, `a mail matching ${match.toString()}`).finally(() => {
        if (waiters.includes(waiter)) waiters.splice(waiters.indexOf(waiter), 1);
      });
    },
    refuse(code, message = 'refused') {
      refusal = code ? { code, message } : undefined;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
