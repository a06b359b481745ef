// What a mailbox's owner changes on messages already filed: labels of one message, of a batch
// (all or nothing), of a whole thread, and deleting a message (its thread's counters follow).
import { notFoundError } from '../errors.js';
import type { MailStore, MessageRow } from '../store/index.js';
import type { Filing } from './filing.js';

export class MessageChanges {
  constructor(
    private readonly store: MailStore,
    private readonly filing: Filing,
  ) {}

  /** Relabels a message as it is now (it may have changed since it was read). */
  relabel(message: MessageRow, add: string[], remove: string[]): Promise<string[]> {
    return this.store.transaction(async (trx) => {
      const fresh = (await this.store.messages.byId(message.id, trx)) ?? message;
      return this.filing.relabel(trx, fresh, add, remove);
    });
  }

  /** All or nothing: an unknown id fails the whole batch before anything changes. */
  relabelBatch(
    inboxId: string,
    messageIds: string[],
    add: string[],
    remove: string[],
  ): Promise<Array<{ message_id: string; labels: string[] }>> {
    return this.store.transaction(async (trx) => {
      const out: Array<{ message_id: string; labels: string[] }> = [];
      for (const id of [...new Set(messageIds)]) {
        const row = await this.store.messages.get(inboxId, id, trx);
        if (!row) throw notFoundError(`Message ${id}`);
        out.push({ message_id: row.message_id, labels: await this.filing.relabel(trx, row, add, remove) });
      }
      return out;
    });
  }

  /** Relabels every message of a thread; answers the thread's label union afterwards. */
  relabelThread(threadId: string, add: string[], remove: string[]): Promise<string[]> {
    return this.store.transaction(async (trx) => {
      for (const row of await this.store.messages.allOfThread(threadId, trx))
        await this.filing.relabel(trx, row, add, remove);
      const fresh = await this.store.threads.get(threadId, trx);
      return JSON.parse(fresh?.labels ?? '[]') as string[];
    });
  }

  async delete(message: Pick<MessageRow, 'id' | 'inbox_id' | 'thread_id'>): Promise<void> {
    await this.store.transaction(async (trx) => {
      await this.store.messages.delete(message, trx);
      await this.filing.recountThread(message.thread_id, trx);
    });
  }
}
