// Attachments reached through a thread or a draft (AgentMail's …/threads/{id}/attachments/{aid}
// and …/drafts/{id}/attachments/{aid}). Attachment ids are per message (att_1, att_2…), so
// under a thread an id names the attachment of the newest message that has one by that id;
// an older message's attachment stays reachable through its message route.
import type { AttachmentMeta } from '../messages/parse.js';
import type { DraftFields } from '../drafts/drafts.js';
import type { DraftRow, MailStore, MessageRow, ThreadRow } from '../store/index.js';

/** Download links for a draft's attachment carry this before the draft id (message links carry a message row id). */
export const DRAFT_LINK_PREFIX = 'draft:';

export async function threadAttachment(
  store: MailStore,
  thread: ThreadRow,
  attachmentId: string,
): Promise<{ message: MessageRow; meta: AttachmentMeta } | undefined> {
  const messages = await store.messages.allOfThread(thread.thread_id, store.readOnly());
  messages.sort((a, b) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : 0));
  for (const message of messages) {
    const meta = (message.attachments ? (JSON.parse(message.attachments) as AttachmentMeta[]) : []).find(
      (a) => a.attachment_id === attachmentId,
    );
    if (meta) return { message, meta };
  }
  return undefined;
}

export function draftAttachment(
  draft: DraftRow,
  attachmentId: string,
): { meta: AttachmentMeta; content: Buffer } | undefined {
  const found = ((JSON.parse(draft.body) as DraftFields).attachments ?? []).find(
    (a) => a.attachment_id === attachmentId,
  );
  if (!found) return undefined;
  const { content, ...meta } = found;
  return { meta, content: Buffer.from(content, 'base64') };
}
