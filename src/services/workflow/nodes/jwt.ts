// JWT (v1): sign, decode and verify JSON Web Tokens with a `jwtAuth` credential (a passphrase
// for HS*, PEM keys for RS*/PS*/ES*); the token work is credentials/jwt.ts.
import { NodeOperationError, type NodeContext, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { decodeJwt, formatPemKey, signJwt, verifyJwt } from '../credentials/jwt.js';
import { isPlainObject } from './util.js';

async function tokenOf(ctx: NodeContext, i: number): Promise<string> {
  const token = await ctx.param<unknown>('token', i, '');
  // n8n validates the parameter as a JWT before the node sees it.
  if (token === null || token === undefined) return '';
  if (!/^[A-Za-z0-9-_]+\.[A-Za-z0-9-_]+\.[A-Za-z0-9-_.+/=]*$/.test(String(token)))
    throw new NodeOperationError(`Invalid input for 'Token' [item ${i}]`, 'Value is not a valid JWT token', i);
  return String(token);
}

async function claimsOf(ctx: NodeContext, i: number): Promise<Record<string, unknown>> {
  if (!(await ctx.param<boolean>('useJson', i, false))) return { ...(await ctx.param('claims', i, {})) };
  const raw = await ctx.param<unknown>('claimsJson', i, '{}');
  if (isPlainObject(raw)) return raw;
  try {
    const parsed: unknown = JSON.parse(String(raw));
    if (isPlainObject(parsed)) return parsed;
  } catch {
    // falls through to n8n's message
  }
  throw new NodeOperationError("The parameter 'claimsJson' is not valid JSON", undefined, i);
}

export default {
  types: ['n8n-nodes-base.jwt'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'sign');
    if (!ctx.services.credential) throw new NodeOperationError('Node does not have any credentials set');
    const cred = await ctx.services.credential(ctx.node, 'jwtAuth');
    const passphrase = (cred.keyType ?? 'passphrase') === 'passphrase';
    const out: Item[] = [];
    const now = Math.floor(ctx.now().getTime() / 1000);
    for (let i = 0; i < ctx.items.length; i++) {
      try {
        const options = await ctx.param<Record<string, unknown>>('options', i, {});
        const alg = String(options.algorithm ?? cred.algorithm ?? 'HS256');
        if (operation === 'sign') {
          const key = passphrase ? (cred.secret as string) : formatPemKey(cred.privateKey as string);
          const token = signJwt(await claimsOf(ctx, i), key, alg, now, options.kid ? String(options.kid) : undefined);
          out.push({ json: { token }, pairedItem: { item: i } });
        } else if (operation === 'verify') {
          const token = await tokenOf(ctx, i);
          const key = passphrase ? (cred.secret as string) : formatPemKey(cred.publicKey as string, true);
          const data = verifyJwt(token, key, alg, now, options);
          const json = options.complete ? data : { payload: data.payload };
          out.push({ json: json as unknown as Item['json'], pairedItem: { item: i } });
        } else if (operation === 'decode') {
          const data = decodeJwt(await tokenOf(ctx, i));
          const json = options.complete && data ? data : { payload: data ? data.payload : null };
          out.push({ json: json as unknown as Item['json'], pairedItem: { item: i } });
        }
      } catch (e) {
        let err = e as Error;
        if (err.message === 'invalid signature')
          err = new NodeOperationError(
            "The JWT token can't be verified",
            'Be sure that the provided JWT token is correctly encoded and matches the selected credentials',
            i,
          );
        else if (!(err instanceof NodeOperationError)) err = new NodeOperationError(err.message, undefined, i);
        if (!ctx.continueOnFail) throw err;
        // n8n's node looks the failed item up as an *input* index (getInputData(i)[0]): only
        // item 0 becomes an error item; a failure on a later item fails the node instead, with
        // what that lookup throws (observed in n8n 2.8.4).
        if (i === 1) throw new NodeOperationError("Cannot read properties of undefined (reading 'json')", undefined, i);
        if (i > 1) throw new NodeOperationError('Could not get input with given index', undefined, i);
        out.push({ json: ctx.items[i].json, error: err, pairedItem: { item: i } });
      }
    }
    return [out];
  },
} satisfies NodeType;
