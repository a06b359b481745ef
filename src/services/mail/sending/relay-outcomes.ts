// What the relay said about mail we handed to the platform mailer: accepted → `delivered`
// label and message.delivered; refused for good → `bounced` label and message.bounced.
// The label is the guard, read under a row lock: an outcome heard by several instances (on Redis) records one event.
import { MAIL_FAILED, MAIL_SENT, type MailOutcome } from '../../../platform/topics.js';
import type { Platform } from '../../../platform/service.js';
import { scopeOf, type Filing } from '../messages/filing.js';
import type { RelayMeta } from './sending.js';
import type { MailStore } from '../store/index.js';
import type { MailEvents } from '../webhooks/events.js';

const isOurs = (meta: unknown): meta is RelayMeta =>
  (meta as RelayMeta | undefined)?.service === 'mail' && typeof (meta as RelayMeta).id === 'string';

export function subscribeRelayOutcomes(
  platform: Platform,
  store: MailStore,
  filing: Filing,
  events: MailEvents,
): () => void {
  const record = async (outcome: MailOutcome, failed: boolean) => {
    if (!isOurs(outcome.meta)) return;
    const id = outcome.meta.id;
    await store.transaction(async (trx) => {
      // Every mail instance of a cluster hears the outcome: the lock makes the others wait and
      // then find the label, so the message is labelled and its webhooks hear of it once.
      const row = await store.messages.byIdForUpdate(id, trx);
      if (!row) return;
      const label = failed ? 'bounced' : 'delivered';
      if ((JSON.parse(row.labels) as string[]).includes(label)) return;
      await filing.relabel(trx, row, [label], []);
      const inbox = await store.inboxes.get(row.inbox_id, trx);
      if (!inbox) return;
      const ref = {
        inbox_id: row.inbox_id,
        thread_id: row.thread_id,
        message_id: row.message_id,
        timestamp: platform.clock.now().toISOString(),
      };
      if (failed) {
        const permanent = (outcome.responseCode ?? 0) >= 500;
        await events.emit(trx, scopeOf(inbox), 'message.bounced', () => ({
          bounce: {
            ...ref,
            type: permanent ? 'Permanent' : 'Transient',
            sub_type: 'General',
            recipients: outcome.envelope.to.map((address) => ({ address, status: 'bounced' })),
          },
        }));
      } else {
        await events.emit(trx, scopeOf(inbox), 'message.delivered', () => ({
          delivery: { ...ref, recipients: outcome.envelope.to },
        }));
      }
    });
  };
  const log = (err: unknown) => platform.logger.error({ err }, 'recording a relay outcome failed');
  const offSent = platform.events.subscribe<MailOutcome>(MAIL_SENT, (o) => record(o, false).catch(log));
  const offFailed = platform.events.subscribe<MailOutcome>(MAIL_FAILED, (o) => record(o, true).catch(log));
  return () => {
    offSent();
    offFailed();
  };
}
