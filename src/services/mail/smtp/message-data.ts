// Reading one message's DATA for both SMTP ports: the bytes up to the size limit, or the 552
// refusal once the client has sent everything (it is still sending past the limit, so keep
// reading but stop keeping).
import type { SMTPServerDataStream } from 'smtp-server';

export type SmtpError = Error & { responseCode?: number };
export const smtpError = (code: number, message: string): SmtpError => Object.assign(new Error(message), { responseCode: code });

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
      if (stream.sizeExceeded || length > maxBytes) reject(smtpError(552, `5.3.4 Message too big (at most ${maxBytes} bytes)`));
      else resolve(Buffer.concat(chunks, length));
    });
  });
}
