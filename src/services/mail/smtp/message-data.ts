// Reading one message's DATA for both SMTP ports: the bytes up to the size limit, or the 552
// refusal once the client has sent everything (it is still sending past the limit, so keep
// reading but stop keeping). Each message's outcome goes to the trace (tracedDataCallback).
import type { SMTPServerDataStream, SMTPServerSession } from 'smtp-server';
import type { Trace } from '../../../platform/trace.js';

export type SmtpError = Error & { responseCode?: number };
export const smtpError = (code: number, message: string): SmtpError =>
  Object.assign(new Error(message), { responseCode: code });

export function readMessage(stream: SMTPServerDataStream, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (c: Buffer) => {
      if (length <= maxBytes) chunks.push(c);
      length += c.length;
    });
    stream.on('error', reject);
    stream.on('end', () => {
      if (stream.sizeExceeded || length > maxBytes)
        reject(smtpError(552, `5.3.4 Message too big (at most ${maxBytes} bytes)`));
      else resolve(Buffer.concat(chunks, length));
    });
  });
}

type DataCallback = (err?: Error | null, message?: string) => void;

/**
 * The DATA callback of one message, recording its outcome in the trace first (one entry per
 * message: envelope sender and recipients, the reply code, how long it took), while the
 * session still holds the envelope; then answering the client as `callback` would.
 */
export function tracedDataCallback(
  trace: Pick<Trace, 'record'>,
  port: 'smtp' | 'submission',
  session: SMTPServerSession,
  callback: DataCallback,
  keyId?: string,
): DataCallback {
  const started = performance.now();
  return (err, message) => {
    trace.record({
      service: 'mail',
      kind: 'smtp',
      method: 'DATA',
      route: port,
      keyId,
      status: err ? ((err as SmtpError).responseCode ?? 451) : 250,
      durationMs: performance.now() - started,
      detail: {
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
        to: session.envelope.rcptTo.map((r) => r.address),
        response: err ? err.message : (message ?? null),
      },
    });
    callback(err, message);
  };
}
