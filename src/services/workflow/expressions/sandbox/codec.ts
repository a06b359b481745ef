// The host side of the few extension methods whose work QuickJS cannot do itself (no crypto, no Buffer):
// hashing and base64. They take and return strings only.

import { createHash } from 'node:crypto';

const HASHES: Record<string, string> = {
  md5: 'md5',
  sha1: 'sha1',
  sha224: 'sha224',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha3: 'sha3-512',
  'sha3-256': 'sha3-256',
  'sha3-384': 'sha3-384',
  'sha3-512': 'sha3-512',
};

export function hostCodec(operation: string, text: string, option: string | undefined): string {
  switch (operation) {
    case 'hash': {
      const algorithm = HASHES[(option ?? 'md5').toLowerCase()];
      if (!algorithm) throw new RangeError(`Unknown algorithm ${option}`);
      return createHash(algorithm).update(text, 'utf8').digest('hex');
    }
    case 'base64Encode':
      return Buffer.from(text, 'utf8').toString('base64');
    case 'base64Decode':
      return Buffer.from(text, 'base64').toString('utf8');
    default:
      throw new TypeError(`Unknown operation ${operation}`);
  }
}
