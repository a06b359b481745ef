// Credential data at rest: AES-256-GCM under the instance's key, so a copy of the database
// alone reveals no secret. The key comes from WORKFLOW_ENCRYPTION_KEY (or n8n's
// N8N_ENCRYPTION_KEY); without one, a random key is generated into the data directory on
// first start and read from there afterwards (every process on this machine shares it; on
// several machines sharing one PostgreSQL, set the variable on all of them).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createOnce } from '../../../platform/files.js';
import path from 'node:path';

const FORMAT = 'v1';
const KEY_FILE = 'workflow-encryption-key';

export class CredentialCipher {
  private readonly key: Buffer;

  /** `secret`: any string; it is hashed to the 32-byte AES key. */
  constructor(secret: string) {
    this.key = createHash('sha256').update(secret, 'utf8').digest();
  }

  /** The configured key, else the data directory's (created on first use with mode 0600). */
  static load(configured: string | undefined, dataDir: string): CredentialCipher {
    if (configured) return new CredentialCipher(configured);
    const file = path.join(dataDir, KEY_FILE);
    try {
      return new CredentialCipher(readFileSync(file, 'utf8').trim());
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    mkdirSync(dataDir, { recursive: true });
    // If another process created it meanwhile, its key wins and is read below (whole: see createOnce).
    createOnce(file, randomBytes(32).toString('base64') + '\n');
    return new CredentialCipher(readFileSync(file, 'utf8').trim());
  }

  encrypt(data: Record<string, unknown>): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(data), 'utf8'), cipher.final()]);
    return `${FORMAT}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')}`;
  }

  /** Throws when the text was not encrypted under this key (a changed key, a tampered row). */
  decrypt(text: string): Record<string, unknown> {
    if (!text.startsWith(`${FORMAT}:`)) throw new Error('credential data is not in a known encrypted format');
    const raw = Buffer.from(text.slice(FORMAT.length + 1), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    const clear = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    return JSON.parse(clear) as Record<string, unknown>;
  }
}
