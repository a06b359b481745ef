// Response schemas of the mail API, for /docs/json and for serialization. Fastify drops any
// property a response schema does not name, so every object here keeps additionalProperties:
// the wire shape stays exactly what the records build (messages/records.ts, drafts), and these
// name what AgentMail's SDK reads. Optional fields are absent, never null (records drop nulls).
import { Type, type TProperties, type TSchema } from '@sinclair/typebox';

/** An object whose listed properties are documented and whose others pass through unchanged. */
export const Open = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });
export const Str = Type.String();
const Strs = Type.Array(Type.String());
export const Int = Type.Integer();
export const opt = <T extends TSchema>(t: T) => Type.Optional(t);
/** A free-form map (metadata, headers, highlights): written as it is. */
const FreeMap = (description: string) => Type.Object({}, { additionalProperties: true, description });

/** The mail envelope of every refusal (http/envelope.ts). */
const ErrorEnvelope = Open(
  {
    error: Open({ type: Str, message: Str, details: FreeMap('Field, code and limits of the refusal') }),
    name: Str,
    message: Str,
    code: Str,
  },
  "A refusal: the contract's error object plus AgentMail's name, message and code",
);

/**
 * A route's answers: `ok` with 200, and the envelope for the refusals every /v0 route can give
 * (400 bad input, 401 no key, 429 over the request limit) plus the route's own (`more`).
 */
export function answers(ok: TSchema, ...more: number[]): Record<number, TSchema> {
  const out: Record<number, TSchema> = { 200: ok };
  for (const status of [400, 401, 429, ...more]) out[status] = ErrorEnvelope;
  return out;
}

const Page = { count: Int, limit: Int, next_page_token: opt(Str) };

export const Inbox = Open({
  pod_id: Str,
  inbox_id: Str,
  email: Str,
  display_name: opt(Str),
  client_id: opt(Str),
  metadata: opt(FreeMap('Strings, numbers and booleans by key')),
  created_at: Str,
  updated_at: Str,
});
export const InboxList = Open({ ...Page, inboxes: Type.Array(Inbox) });

const AttachmentMeta = Open({
  attachment_id: Str,
  size: Int,
  filename: opt(Str),
  content_type: opt(Str),
  content_disposition: opt(Str),
  content_id: opt(Str),
});

const messageItemFields = {
  inbox_id: Str,
  thread_id: Str,
  message_id: Str,
  labels: Strs,
  timestamp: Str,
  from: Str,
  to: Strs,
  cc: opt(Strs),
  bcc: opt(Strs),
  subject: opt(Str),
  preview: opt(Str),
  attachments: opt(Type.Array(AttachmentMeta)),
  in_reply_to: opt(Str),
  references: opt(Strs),
  size: Int,
  created_at: Str,
  updated_at: Str,
};
const MessageItem = Open({
  ...messageItemFields,
  highlights: opt(FreeMap('Matched terms wrapped in **, by field (search only)')),
});
export const Message = Open({
  ...messageItemFields,
  reply_to: opt(Strs),
  text: opt(Str),
  html: opt(Str),
  extracted_text: opt(Str),
  extracted_html: opt(Str),
  headers: opt(FreeMap('Header values by name')),
});
export const MessageList = Open({ ...Page, messages: Type.Array(MessageItem) });
export const SendResult = Open({ message_id: Str, thread_id: Str });
export const MessageLabels = Open({ message_id: Str, labels: Strs });
export const BatchUpdated = Open({ limit: Int, count: Int, updates: Type.Array(MessageLabels) });
export const BatchGot = Open({ limit: Int, count: Int, messages: Type.Array(MessageItem) });
export const AttachmentLink = Open({ ...AttachmentMeta.properties, download_url: Str, expires_at: Str });
export const RawLink = Open({ message_id: Str, size: Int, download_url: Str, expires_at: Str });

const threadFields = {
  inbox_id: Str,
  thread_id: Str,
  labels: Strs,
  timestamp: Str,
  received_timestamp: opt(Str),
  sent_timestamp: opt(Str),
  senders: Strs,
  recipients: Strs,
  subject: opt(Str),
  preview: opt(Str),
  attachments: opt(Type.Array(AttachmentMeta)),
  last_message_id: Str,
  message_count: Int,
  size: Int,
  created_at: Str,
  updated_at: Str,
  participants: opt(Strs),
  last_message_at: opt(Str),
};
const Thread = Open({
  ...threadFields,
  highlights: opt(FreeMap('Matched terms wrapped in **, by field (search only)')),
});
export const ThreadList = Open({ ...Page, threads: Type.Array(Thread) });
export const ThreadWithMessages = Open({ ...threadFields, ...Page, messages: Type.Array(Message) });
export const ThreadLabels = Open({ thread_id: Str, labels: Strs });

export const Draft = Open({
  inbox_id: Str,
  draft_id: Str,
  client_id: opt(Str),
  labels: Strs,
  reply_to: opt(Strs),
  to: opt(Strs),
  cc: opt(Strs),
  bcc: opt(Strs),
  subject: opt(Str),
  preview: opt(Str),
  text: opt(Str),
  html: opt(Str),
  attachments: opt(Type.Array(AttachmentMeta)),
  in_reply_to: opt(Str),
  forward_of: opt(Str),
  references: opt(Strs),
  send_status: opt(Str),
  send_at: opt(Str),
  updated_at: Str,
  created_at: opt(Str),
});
export const DraftList = Open({ ...Page, drafts: Type.Array(Draft) });

export const Webhook = Open({
  webhook_id: Str,
  url: Str,
  event_types: Strs,
  inbox_ids: opt(Strs),
  pod_ids: opt(Strs),
  secret: Str,
  enabled: Type.Boolean(),
  client_id: opt(Str),
  created_at: Str,
  updated_at: Str,
  last_delivery_status: opt(
    Type.String({
      description: 'Hamlet: succeeded, retrying or failed (attempts exhausted); absent before the first delivery',
    }),
  ),
  last_delivery_attempts: opt(Type.Integer({ description: 'Hamlet: attempts the latest recorded delivery took' })),
  last_delivery_error: opt(Type.String({ description: 'Hamlet: why the latest failed attempt failed' })),
  last_error_at: opt(Type.String({ description: 'Hamlet: when the latest failed attempt failed' })),
});
export const WebhookList = Open({ ...Page, webhooks: Type.Array(Webhook) });
export const HeaderNames = Open({ header_names: Strs });

/** What a DELETE answers: `deleted: true` and the id of what went (`idField`). */
export const Deleted = (idField: string) => Open({ deleted: Type.Boolean(), [idField]: Str });
/** What a DELETE of mail answers: deleted for good, or moved to the trash. */
export const DeletedOrTrashed = (idField: string) =>
  Open({ deleted: Type.Boolean(), trashed: Type.Boolean(), [idField]: Str });
