// `hamlet mail outbox`: the operator's view of the outbox, oldest first, every organization's
// held mail and the platform's own, with its text, so a development setup without a relay can
// read the mail it "sent" (a blog's verification link, say) from the terminal.
import type { Platform } from '../../../platform/service.js';
import { MailStore, type Cursor } from '../store/index.js';
import { outboxItem } from './outbox.js';

const PAGE = 100;

/** Prints every held message; returns how many. */
export async function printOutbox(platform: Platform, out: (line: string) => void): Promise<number> {
  const store = new MailStore(platform.db, { onChange: async () => {}, logger: platform.logger });
  let cursor: Cursor | undefined;
  let count = 0;
  for (;;) {
    const rows = await store.outbox.list({ limit: PAGE, cursor, ascending: true });
    for (const row of rows.slice(0, PAGE)) {
      const m = outboxItem(row);
      count++;
      out(
        `── ${m.created_at}  ${m.status}  ${m.source === 'inbox' ? `from inbox ${m.inbox_id}` : 'platform mail'}  (${m.outbox_id})`,
      );
      out(`From:       ${m.from}`);
      out(`To:         ${m.to.join(', ')}`);
      out(`Subject:    ${m.subject ?? ''}`);
      out(`Message-ID: ${m.message_id}`);
      out('');
      out((m.text ?? m.html ?? '').trimEnd());
      out('');
    }
    if (rows.length <= PAGE) break;
    const last = rows[PAGE - 1];
    cursor = [last.created_at, last.outbox_id];
  }
  out(
    count
      ? `${count} message${count === 1 ? '' : 's'} held: HAMLET_SMTP_RELAY is not set; they are sent when Hamlet starts with a relay.`
      : 'The outbox is empty: no mail to other domains is waiting for a relay.',
  );
  return count;
}
