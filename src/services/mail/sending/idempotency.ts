// Idempotency-Key on sends (send, reply, reply-all, forward, draft send): a repeat with the
// same request gets the first answer; the same key with another request (body, inbox or
// route) is a conflict. The key is recorded in the transaction of the send itself.
import { DomainError } from '../../../platform/errors.js';
import type { Clock } from '../../../platform/clock.js';
import { isDuplicate, type MailStore, type Tx } from '../store/index.js';
import type { SendResult } from './sending.js';

/** The database half of a send, run inside the transaction. */
export type SendWrite = (trx: Tx) => Promise<SendResult>;

/** The caller's send quota: checked before composing, counted once a send is accepted (replays are free). */
export interface SendQuota {
  check(): Promise<void>;
  count(): Promise<void>;
}

export interface SendRequest {
  orgId: string;
  /** The Idempotency-Key, if the caller gave one. */
  key?: string;
  /** What the key must keep meaning: a hash of the inbox, the route and the body. */
  requestHash: string;
}

export class IdempotentSends {
  constructor(
    private readonly store: MailStore,
    private readonly clock: Clock,
  ) {}

  /** Composes (`prepare`, outside any transaction) and writes a send, once per key when one is given. */
  async run(req: SendRequest, quota: SendQuota, prepare: () => Promise<SendWrite>): Promise<SendResult> {
    const { key } = req;
    if (key === undefined) {
      await quota.check();
      const result = await this.store.transaction(await prepare());
      await quota.count();
      return result;
    }
    const earlier = await this.replay(req.orgId, key, req.requestHash);
    if (earlier) return earlier;
    await quota.check();
    const write = await prepare();
    try {
      const result = await this.store.transaction(async (trx) => {
        const r = await write(trx);
        await this.store.idempotency.insert(req.orgId, key, req.requestHash, r, this.clock.now().toISOString(), trx);
        return r;
      });
      await quota.count();
      return result;
    } catch (err) {
      if (!isDuplicate(err)) throw err;
      // A concurrent request with the same key committed first.
      const winner = await this.replay(req.orgId, key, req.requestHash);
      if (winner) return winner;
      throw err;
    }
  }

  private async replay(orgId: string, key: string, hash: string): Promise<SendResult | undefined> {
    const rec = await this.store.idempotency.get(orgId, key);
    if (!rec) return undefined;
    if (rec.request_hash !== hash)
      throw new DomainError('conflict', 'Idempotency-Key was already used with a different request', 'conflict', {
        field: 'Idempotency-Key',
        code: 'IDEMPOTENCY_CONFLICT',
      });
    return JSON.parse(rec.response) as SendResult;
  }
}
