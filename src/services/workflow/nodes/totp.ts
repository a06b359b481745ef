// TOTP (v1): the current time-based one-time password (RFC 6238 over RFC 4226's HOTP) of a
// `totpApi` credential's base32 secret, and the seconds it stays valid, on every item. One code
// per run (the clock is read once), as n8n's node does.
import { createHmac } from 'node:crypto';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

const HASHES: Record<string, string> = {
  SHA1: 'sha1',
  SHA224: 'sha224',
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
  'SHA3-224': 'sha3-224',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
};

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 in either case, trailing padding ignored; a space is an invalid character (as n8n's library). */
export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase();
  const out = Buffer.alloc(Math.floor((clean.length * 5) / 8));
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const ch of clean) {
    const idx = BASE32.indexOf(ch);
    if (idx < 0) throw new NodeOperationError(`Invalid character found: ${ch}`);
    value = (value << 5) | idx;
    bits += 5;
    if (bits >= 8) {
      out[n++] = (value >>> (bits - 8)) & 0xff;
      bits -= 8;
    }
  }
  return out;
}

/** The HOTP code of `counter` (RFC 4226 §5.3, dynamic truncation). */
export function hotp(secret: Buffer, counter: number, digits: number, algorithm: string): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(algorithm, secret).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(binary).padStart(digits, '0');
}

export default {
  types: ['n8n-nodes-base.totp'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'generateSecret');
    if (!ctx.services.credential) throw new NodeOperationError('Node does not have any credentials set');
    const cred = await ctx.services.credential(ctx.node, 'totpApi');
    const label = cred.label ? String(cred.label) : '';
    if (label && !label.includes(':')) throw new NodeOperationError('Malformed label - expected `issuer:username`');
    const options = (await ctx.param<Record<string, unknown>>('options', 0, {})) ?? {};
    const algorithm = HASHES[String(options.algorithm || 'SHA1')];
    if (!algorithm) throw new NodeOperationError(`Unknown hash algorithm: ${String(options.algorithm)}`);
    const digits = Number(options.digits) || 6;
    const period = Number(options.period) || 30;
    const seconds = ctx.now().getTime() / 1000;
    const token = hotp(base32Decode(String(cred.secret ?? '')), Math.floor(seconds / period), digits, algorithm);
    const secondsRemaining = Math.trunc(period * (1 - ((seconds / period) % 1)));
    const out: Item[] = [];
    if (operation === 'generateSecret')
      for (let i = 0; i < ctx.items.length; i++)
        out.push({ json: { token, secondsRemaining }, pairedItem: { item: i } });
    return [out];
  },
} satisfies NodeType;
