// DKIM for custom domains: an RSA 2048 key generated per domain (node:crypto), its public half
// published as the selector's TXT record, and outgoing mail signed with nodemailer's DKIM signer.
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { dkimSigner } from '../../../platform/optional-modules.js';

const generate = promisify(generateKeyPair);

export interface DkimKey {
  selector: string;
  privateKey: string;
  /** The public key as the `p=` tag wants it: base64 of the DER SubjectPublicKeyInfo. */
  publicKey: string;
}

/** The selector names the key's year and month, so a later key can sit beside it during a rotation. */
export async function generateDkimKey(now: Date): Promise<DkimKey> {
  const { privateKey, publicKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const selector = `hamlet${now.toISOString().slice(0, 7).replace('-', '')}`;
  return { selector, privateKey, publicKey: publicKey.toString('base64') };
}

/** The TXT value of the selector record. */
export const dkimRecordValue = (publicKey: string) => `v=DKIM1; k=rsa; p=${publicKey}`;

/** A message signed with a DKIM-Signature header (relaxed/relaxed, rsa-sha256), as nodemailer's transports do. */
export async function dkimSign(
  raw: Buffer,
  key: { domain: string; selector: string; privateKey: string },
): Promise<Buffer> {
  const signer = new (dkimSigner())({ domainName: key.domain, keySelector: key.selector, privateKey: key.privateKey });
  const chunks: Buffer[] = [];
  for await (const chunk of signer.sign(raw)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}
