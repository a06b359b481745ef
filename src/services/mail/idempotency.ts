// Idempotency-Key on sends (send, reply, reply-all, forward, draft send): a repeat with the
// same request gets the first answer; the same key with another request (body, inbox or
// route) gets 409. The key is recorded in the transaction of the send itself.
// A send comes in two steps: `prepare` composes the message outside any transaction and
// returns the write, which runs inside it (a transaction awaits only its statements).
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isUniqueViolation } from '../../platform/db.js';
import { conflict } from '../../platform/errors.js';
import type { MailContext } from './context.js';
import { invalid } from './errors.js';
import type { SendBody, SendResult } from './sending.js';

/** The database half of a send, run inside the transaction. */
export type SendWrite = (trx: Tx) => Promise<SendResult>;
import type { InboxRow, Tx } from './store.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9\-._~]{1,256}$/;

/**
 * Runs a send once per Idempotency-Key: a repeat with the same request gets the first
 * answer; the same key with another request (body, inbox or route) gets 409.
 */
export async function idempotent(ctx: MailContext, request: FastifyRequest, inbox: InboxRow, route: string, body: SendBody | object, prepare: () => Promise<SendWrite>): Promise<SendResult> {
  const header = request.headers['idempotency-key'];
  if (header === undefined) {
    await ctx.sendLimit.check(request);
    const write = await prepare();
    const result = await ctx.store.transaction(write);
    await ctx.sendLimit.count(request);
    return result;
  }
  const key = Array.isArray(header) ? header[0]! : header;
  if (!IDEMPOTENCY_KEY.test(key)) throw invalid('Idempotency-Key', 'must be 1 to 256 characters from A-Z a-z 0-9 - . _ ~', 'INVALID_IDEMPOTENCY_KEY');
  const hash = createHash('sha256').update(JSON.stringify([inbox.inbox_id, route, body])).digest('hex');
  const replay = async (): Promise<SendResult | undefined> => {
    const rec = await ctx.store.idempotencyRecord(request.mailOrgId, key);
    if (!rec) return undefined;
    if (rec.request_hash !== hash) throw conflict('Idempotency-Key was already used with a different request', 'conflict', { field: 'Idempotency-Key', code: 'IDEMPOTENCY_CONFLICT' });
    return JSON.parse(rec.response) as SendResult;
  };
  const earlier = await replay();
  if (earlier) return earlier;
  await ctx.sendLimit.check(request);
  const write = await prepare();
  try {
    const result = await ctx.store.transaction(async (trx) => {
      const r = await write(trx);
      await ctx.store.insertIdempotency(request.mailOrgId, key, hash, r, ctx.platform.clock.now().toISOString(), trx);
      return r;
    });
    await ctx.sendLimit.count(request);
    return result;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    // A concurrent request with the same key committed first.
    const winner = await replay();
    if (winner) return winner;
    throw err;
  }
}
