// The host side of the few extension methods whose work QuickJS cannot do itself (no crypto, no Buffer):
// hashing and base64; and the description of a file the Code node's helpers prepare (the MIME
// tables stay on the host). They take and return strings only.

import { createHash } from 'node:crypto';
import { describeFile } from '../../binary/meta.js';

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
    case 'describeFile': {
      // text: {head (base64 of the first bytes), size, filePath?, mimeType?}; answers the description as JSON.
      const a = JSON.parse(text) as { head: string; size: number; filePath?: unknown; mimeType?: unknown };
      const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
      return JSON.stringify(
        describeFile(Buffer.from(a.head, 'base64'), Number(a.size) || 0, str(a.filePath), str(a.mimeType)),
      );
    }
    default:
      throw new TypeError(`Unknown operation ${operation}`);
  }
}
