// Allow and block lists at receive time, for mail arriving over SMTP and for mail delivered
// between inboxes by the API alike (both are filed through messages/filing.ts, which asks here).
// As AgentMail does, a refused sender's mail is not bounced but kept, labelled `blocked`
// (lists hide it unless include_blocked=true; webhooks hear message.received.blocked), so a
// wrong entry loses nothing.
import type { EventBus } from '../../../platform/events.js';
import { bareAddress } from '../addresses.js';
import type { InboxRow, ListEntryRow, MailStore, Tx } from '../store/index.js';

const LISTS_CHANGED_TOPIC = 'mail.lists.changed';
export const BLOCKED = 'blocked';

type Entry = Pick<ListEntryRow, 'pod_id' | 'inbox_id' | 'list_type' | 'entry'>;

/** Whether `entry` (an address or a domain) names the sender: the address, its domain or a parent domain. */
function names(entry: string, sender: string): boolean {
  if (entry.includes('@')) return entry === sender;
  const domain = sender.slice(sender.lastIndexOf('@') + 1);
  return domain === entry || domain.endsWith(`.${entry}`);
}

/**
 * The verdict on a sender at an inbox, from the receive entries of its organization: an allow
 * entry admits (it wins over a block entry); a block entry refuses; and where any allow list
 * applies to the inbox (organization, pod or inbox), only its entries are admitted.
 */
function receiveVerdict(
  entries: Entry[],
  inbox: Pick<InboxRow, 'pod_id' | 'inbox_id'>,
  from: string,
): 'allow' | 'block' {
  const sender = bareAddress(from).toLowerCase();
  const applies = entries.filter((e) =>
    e.inbox_id ? e.inbox_id === inbox.inbox_id : !e.pod_id || e.pod_id === inbox.pod_id,
  );
  const allows = applies.filter((e) => e.list_type === 'allow');
  if (allows.some((e) => names(e.entry, sender))) return 'allow';
  if (applies.some((e) => e.list_type === 'block' && names(e.entry, sender))) return 'block';
  return allows.length ? 'block' : 'allow';
}

/** The receive lists of each organization, cached (every received message asks) and dropped on any change. */
export class ReceiveLists {
  private readonly cache = new Map<string, Entry[]>();

  /** After a world restore: every organization's lists are read again. */
  forgetAll(): void {
    this.cache.clear();
  }
  readonly close: () => void;

  constructor(
    private readonly store: MailStore,
    private readonly bus: EventBus,
  ) {
    this.close = bus.subscribe<{ orgId: string }>(LISTS_CHANGED_TOPIC, (m) => {
      this.cache.delete(m.orgId);
    });
  }

  /** Call after an entry of the organization was added or removed (every instance hears it). */
  async changed(orgId: string): Promise<void> {
    this.cache.delete(orgId);
    await this.bus.publish(LISTS_CHANGED_TOPIC, { orgId });
  }

  /** Asked while filing, inside its transaction (`trx`): on SQLite a read outside it would wait for it. */
  async verdict(inbox: InboxRow, from: string, trx: Tx): Promise<'allow' | 'block'> {
    let entries = this.cache.get(inbox.org_id);
    if (!entries) {
      entries = await this.store.lists.receiveEntries(inbox.org_id, trx);
      if (this.cache.size > 10_000) this.cache.clear();
      this.cache.set(inbox.org_id, entries);
    }
    return entries.length ? receiveVerdict(entries, inbox, from) : 'allow';
  }
}
