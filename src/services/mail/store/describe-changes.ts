// The mail's changed rows as people read them (the semantic diff of evaluations): a message
// sent or received (from, to, subject), its labels changed, inboxes and drafts made or
// deleted, an agent's own sign-up and its verification, AgentID providers and accounts.
// Threads, raw copies, idempotency keys, the outbox, the log of label events and the sign-ins
// with their keys follow the rest: bookkeeping.
import { shown, type WorldChangeDescriber } from '../../../platform/world.js';

const BOOKKEEPING = new Set([
  'mail_threads',
  'mail_raw',
  'mail_idempotency',
  'mail_outbox',
  'mail_api_keys',
  'mail_inbox_events',
  'mail_sign_ins',
  'mail_sign_in_keys',
]);

function list(text: unknown): string[] {
  try {
    const v = JSON.parse(String(text ?? '[]')) as unknown;
    return Array.isArray(v) ? v.map(String) : [String(v)];
  } catch {
    return [String(text)];
  }
}

export const describeMailChange: WorldChangeDescriber = (c) => {
  if (BOOKKEEPING.has(c.table)) return null;
  const row = (c.after ?? c.before)!;
  if (c.table === 'mail_inboxes') {
    const id = String(c.key.inbox_id);
    if (c.change === 'added') return { kind: 'inbox.created', subject: id, text: `inbox ${id} created` };
    if (c.change === 'removed') return { kind: 'inbox.deleted', subject: id, text: `inbox ${id} deleted` };
    return { kind: 'inbox.changed', subject: id, text: `inbox ${id} changed (${(c.columns ?? []).join(', ')})` };
  }
  if (c.table === 'mail_agent_orgs') {
    const inbox = String(row.inbox_id);
    if (c.change === 'added')
      return {
        kind: 'agent.signed_up',
        subject: inbox,
        text: `agent signed up with inbox ${inbox}${row.human_email ? ` (human ${String(row.human_email)})` : ''}`,
      };
    if (c.change === 'changed' && c.after?.verified_at && !c.before?.verified_at)
      return { kind: 'agent.verified', subject: inbox, text: `agent organization of ${inbox} verified` };
    return c.change === 'removed'
      ? { kind: 'agent.removed', subject: inbox, text: `agent sign-up of ${inbox} removed` }
      : null;
  }
  if (c.table === 'mail_accounts') {
    const inbox = String(row.inbox_id);
    if (c.change === 'added')
      return {
        kind: 'account.created',
        subject: inbox,
        text: `inbox ${inbox} signed up at provider ${String(row.provider_id)}`,
      };
    if (c.change === 'changed')
      return {
        kind: 'account.signed_in',
        subject: inbox,
        text: `inbox ${inbox} signed in at provider ${String(row.provider_id)} again`,
      };
    return {
      kind: 'account.removed',
      subject: inbox,
      text: `account of ${inbox} at provider ${String(row.provider_id)} removed`,
    };
  }
  if (c.table === 'mail_providers') {
    const name = shown(row.name ?? '');
    return {
      kind: `provider.${c.change === 'added' ? 'registered' : c.change === 'removed' ? 'removed' : 'changed'}`,
      subject: String(c.key.provider_id),
      text: `provider "${name}" ${c.change === 'added' ? 'registered' : c.change}`,
    };
  }
  if (c.table === 'mail_drafts') {
    const inbox = String(row.inbox_id);
    return {
      kind: `draft.${c.change === 'added' ? 'created' : c.change === 'removed' ? 'deleted' : 'changed'}`,
      subject: inbox,
      text: `draft in ${inbox} ${c.change}: "${shown(row.subject ?? '')}"`,
    };
  }
  if (c.table !== 'mail_messages') return undefined;
  const inbox = String(row.inbox_id);
  const labels = list(row.labels);
  const what = `"${shown(row.subject ?? '')}" from ${shown(row.from_addr)} to ${list(row.to_addrs).join(', ')}`;
  if (c.change === 'removed')
    return { kind: 'message.deleted', subject: inbox, text: `message ${what} deleted from ${inbox}` };
  if (c.change === 'added') {
    const sent = labels.includes('sent');
    return {
      kind: sent ? 'message.sent' : 'message.received',
      subject: inbox,
      text: `message ${sent ? 'sent' : 'received'} ${what}`,
    };
  }
  if (!c.columns?.includes('labels'))
    return c.columns?.every((col) => col === 'updated_at')
      ? null
      : { kind: 'message.changed', subject: inbox, text: `message ${what} changed (${c.columns?.join(', ')})` };
  const was = list(c.before?.labels);
  const added = labels.filter((l) => !was.includes(l)).map((l) => `+${l}`);
  const removed = was.filter((l) => !labels.includes(l)).map((l) => `-${l}`);
  return {
    kind: 'message.labels',
    subject: inbox,
    text: `message ${what}: labels ${[...added, ...removed].join(' ')}`,
  };
};
