// Crypto (v1): hashes, HMACs and random values written to `dataPropertyName` (default "data").
// Signing needs a private key credential, which Hamlet does not store: it fails clearly.
import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { clone } from './util.js';

const ALGORITHMS: Record<string, string> = {
  MD5: 'md5',
  SHA256: 'sha256',
  SHA384: 'sha384',
  SHA512: 'sha512',
  SHA1: 'sha1',
  SHA3: 'sha3-512',
  'SHA3-256': 'sha3-256',
  'SHA3-384': 'sha3-384',
  'SHA3-512': 'sha3-512',
};

function algorithm(type: string): string {
  const a = ALGORITHMS[type];
  if (!a) throw new NodeOperationError(`The hash type "${type}" is not supported`);
  return a;
}

async function generate(ctx: Parameters<NodeType['execute']>[0], i: number): Promise<string> {
  const type = await ctx.param<string>('encodingType', i, 'uuid');
  if (type === 'uuid') return randomUUID();
  const length = Number(await ctx.param('stringLength', i, 32));
  const bytes = randomBytes(length);
  if (type === 'hex') return bytes.toString('hex').slice(0, length);
  if (type === 'base64') return bytes.toString('base64').replace(/\W/g, '').slice(0, length);
  return bytes.toString('ascii').slice(0, length);
}

export default {
  types: ['n8n-nodes-base.crypto'],
  async execute(ctx) {
    const action = ctx.raw<string>('action', 'hash');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      const property = await ctx.param<string>('dataPropertyName', i, 'data');
      let result: string;
      if (action === 'generate') result = await generate(ctx, i);
      else if (action === 'sign')
        throw new NodeOperationError(
          'Signing needs a private key credential, which this server does not store',
          undefined,
          i,
        );
      else {
        // v2 signs HMACs with a stored credential, which a run here never has (n8n's words, observed).
        if (action === 'hmac' && ctx.typeVersion >= 2)
          throw new NodeOperationError('Node does not have any credentials set', undefined, i);
        const type = await ctx.param<string>('type', i, ctx.typeVersion >= 2 ? 'SHA256' : 'MD5');
        // Handed to Node's crypto as is: a value that is no string fails with its TypeError, as in n8n.
        const value = await ctx.param<string>('value', i, undefined);
        const encoding = (await ctx.param<string>('encoding', i, 'hex')) as 'hex' | 'base64';
        try {
          result =
            action === 'hmac'
              ? createHmac(algorithm(type), await ctx.param<string>('secret', i, ''))
                  .update(value)
                  .digest(encoding)
              : createHash(algorithm(type)).update(value).digest(encoding);
        } catch (e) {
          throw new NodeOperationError((e as Error).message, undefined, i);
        }
      }
      const json = clone(item.json);
      // The property is a key as named, dots and brackets too (observed, both versions).
      json[property] = result;
      out.push({ ...item, json, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
