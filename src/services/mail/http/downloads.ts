// Download links for attachments and raw messages: the API answers with JSON holding a URL
// (as AgentMail does), and the URL itself is the credential: an HMAC-signed, expiring token.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface DownloadTarget {
  /** Internal message id. */
  id: string;
  /** Attachment id, or absent for the raw message. */
  attachment?: string;
  /** Expiry, epoch milliseconds. */
  exp: number;
}

export const DOWNLOAD_TTL_MS = 60 * 60_000;

export class DownloadLinks {
  constructor(
    private readonly secret: string,
    private readonly baseUrl: () => string,
  ) {}

  private mac(payload: string): string {
    return createHmac('sha256', this.secret).update(payload).digest('base64url');
  }

  url(target: DownloadTarget): string {
    const payload = Buffer.from(JSON.stringify([target.id, target.attachment ?? null, target.exp])).toString(
      'base64url',
    );
    return `${this.baseUrl()}/v0/downloads/${payload}.${this.mac(payload)}`;
  }

  /** The target of a token, or undefined when it is forged, malformed or expired. */
  verify(token: string, nowMs: number): DownloadTarget | undefined {
    const [payload, mac] = token.split('.');
    if (!payload || !mac) return undefined;
    const expected = Buffer.from(this.mac(payload));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
    try {
      const [id, attachment, exp] = JSON.parse(Buffer.from(payload, 'base64url').toString()) as [
        string,
        string | null,
        number,
      ];
      if (typeof id !== 'string' || typeof exp !== 'number' || exp < nowMs) return undefined;
      return { id, attachment: attachment ?? undefined, exp };
    } catch {
      return undefined;
    }
  }
}
