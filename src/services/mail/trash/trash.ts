// Deleting mail as AgentMail documents it (docs.agentmail.to, "Delete Thread"): DELETE moves a
// thread, message or draft to the trash by labelling it `trash`, and only `permanent=true`
// removes it for good. AgentMail also purges what is already in the trash on a second DELETE;
// this service does not: without `permanent=true` nothing is ever removed (nothing is lost to
// a retried request), and taking `trash` off again (PATCH remove_labels) restores it.
import type { Drafts } from '../drafts/drafts.js';
import type { MessageChanges } from '../messages/changes.js';
import type { DraftRow, MailStore, MessageRow, ThreadRow } from '../store/index.js';
import { TRASH } from '../labels.js';

export type DeleteOutcome = { deleted: boolean; trashed: boolean };

export class Trash {
  constructor(
    private readonly store: MailStore,
    private readonly changes: MessageChanges,
    private readonly drafts: Drafts,
  ) {}

  /** Trashes every message of a thread, or with `permanent` deletes the thread and its messages. */
  async thread(thread: ThreadRow, permanent: boolean): Promise<DeleteOutcome> {
    if (permanent) {
      await this.store.threads.delete(thread.thread_id, thread.inbox_id);
      return { deleted: true, trashed: false };
    }
    await this.changes.relabelThread(thread.thread_id, [TRASH], []);
    return { deleted: false, trashed: true };
  }

  async message(message: MessageRow, permanent: boolean): Promise<DeleteOutcome> {
    if (permanent) {
      await this.changes.delete(message);
      return { deleted: true, trashed: false };
    }
    await this.changes.relabel(message, [TRASH], []);
    return { deleted: false, trashed: true };
  }

  /** A trashed draft is also unscheduled: it must not go out by itself from the trash. */
  async draft(draft: DraftRow, permanent: boolean): Promise<DeleteOutcome> {
    if (permanent) {
      await this.store.drafts.delete(draft.draft_id);
      return { deleted: true, trashed: false };
    }
    await this.drafts.update(draft, { add_labels: [TRASH], ...(draft.send_at ? { send_at: null } : {}) });
    return { deleted: false, trashed: true };
  }
}
