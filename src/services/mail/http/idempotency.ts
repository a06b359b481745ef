// The Idempotency-Key header of the send routes: checked here, then the send runs once per key
// (sending/idempotency.ts) within the caller's send quota.
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { invalid } from '../errors.js';
import type { SendWrite } from '../sending/idempotency.js';
import type { SendBody, SendResult } from '../sending/sending.js';
import type { InboxRow } from '../store/index.js';
import type { MailContext } from './context.js';

const IDEMPOTENCY_KEY = /^[A-Za-z0-9\-._~]{1,256}$/;

export async function idempotent(
  ctx: MailContext,
  request: FastifyRequest,
  inbox: InboxRow,
  route: string,
  body: SendBody | object,
  prepare: () => Promise<SendWrite>,
): Promise<SendResult> {
  const header = request.headers['idempotency-key'];
  const key = header === undefined ? undefined : Array.isArray(header) ? header[0] : header;
  if (key !== undefined && !IDEMPOTENCY_KEY.test(key))
    throw invalid('Idempotency-Key', 'must be 1 to 256 characters from A-Z a-z 0-9 - . _ ~', 'INVALID_IDEMPOTENCY_KEY');
  const requestHash =
    key === undefined
      ? ''
      : createHash('sha256')
          .update(JSON.stringify([inbox.inbox_id, route, body]))
          .digest('hex');
  const quota = { check: () => ctx.sendLimit.check(request), count: () => ctx.sendLimit.count(request) };
  return ctx.sends.run({ orgId: request.mailOrgId, key, requestHash }, quota, prepare);
}
