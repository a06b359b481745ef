// Rows to wire records. REST records may carry the contract's extra fields; webhook payloads
// must be exactly the SDK's shapes (its strict parsers reject unknown keys), so the thread
// serializer takes a flag and optional fields are omitted rather than sent as null.
import { bareAddress, distinct } from '../addresses.js';
import type { InboxRow, MessageItemRow, MessageRow, ThreadRow, WebhookRow } from '../store/index.js';

const list = (json: string | null): string[] | undefined => (json ? (JSON.parse(json) as string[]) : undefined);
const nonEmpty = <T>(a: T[] | undefined): T[] | undefined => (a && a.length ? a : undefined);

/** Drops undefined and null values so optional fields are absent, never null. */
function compact<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined || o[k] === null) delete o[k];
  return o;
}

export function inboxRecord(r: InboxRow) {
  return compact({
    pod_id: r.pod_id,
    inbox_id: r.inbox_id,
    email: r.inbox_id,
    display_name: r.display_name,
    client_id: r.client_id,
    metadata: r.metadata ? (JSON.parse(r.metadata) as Record<string, string | number | boolean>) : undefined,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
}

export function messageItem(r: MessageItemRow) {
  return compact({
    inbox_id: r.inbox_id,
    thread_id: r.thread_id,
    message_id: r.message_id,
    labels: JSON.parse(r.labels) as string[],
    timestamp: r.timestamp,
    from: r.from_addr,
    to: JSON.parse(r.to_addrs) as string[],
    cc: nonEmpty(list(r.cc_addrs)),
    bcc: nonEmpty(list(r.bcc_addrs)),
    subject: r.subject,
    preview: r.preview,
    attachments: nonEmpty(r.attachments ? JSON.parse(r.attachments) : undefined),
    in_reply_to: r.in_reply_to,
    references: nonEmpty(list(r.refs)),
    size: r.size,
    created_at: r.created_at,
    updated_at: r.updated_at,
  });
}

export function messageRecord(r: MessageRow) {
  return compact({
    ...messageItem(r),
    reply_to: nonEmpty(list(r.reply_to)),
    text: r.text_body,
    html: r.html_body,
    extracted_text: r.extracted_text,
    extracted_html: r.extracted_html,
    headers: r.headers ? (JSON.parse(r.headers) as Record<string, string>) : undefined,
  });
}

/** ThreadItem; with `rest`, also the contract's participants and last_message_at. */
export function threadItem(r: ThreadRow, rest: boolean) {
  const senders = JSON.parse(r.senders) as string[];
  const recipients = JSON.parse(r.recipients) as string[];
  return compact({
    inbox_id: r.inbox_id,
    thread_id: r.thread_id,
    labels: JSON.parse(r.labels) as string[],
    timestamp: r.timestamp,
    received_timestamp: r.received_timestamp,
    sent_timestamp: r.sent_timestamp,
    senders,
    recipients,
    subject: r.subject,
    preview: r.preview,
    attachments: nonEmpty(r.attachments ? JSON.parse(r.attachments) : undefined),
    last_message_id: r.last_message_id,
    message_count: r.message_count,
    size: r.size,
    created_at: r.created_at,
    updated_at: r.updated_at,
    ...(rest
      ? { participants: distinct([...senders, ...recipients]).map(bareAddress), last_message_at: r.timestamp }
      : {}),
  });
}

export function webhookRecord(r: WebhookRow) {
  return compact({
    webhook_id: r.webhook_id,
    url: r.url,
    event_types: JSON.parse(r.event_types) as string[],
    inbox_ids: nonEmpty(list(r.inbox_ids)),
    pod_ids: nonEmpty(list(r.pod_ids)),
    secret: r.secret,
    enabled: r.enabled === 1,
    client_id: r.client_id,
    created_at: r.created_at,
    updated_at: r.updated_at,
    // Hamlet's additions (the SDK passes unknown fields through): failed deliveries made visible.
    last_delivery_status: r.last_delivery_status,
    last_delivery_attempts: r.last_delivery_attempts,
    last_delivery_error: r.last_delivery_error,
    last_error_at: r.last_error_at,
  });
}
