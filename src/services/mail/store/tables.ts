// The mail service's tables as Kysely sees them, and the shapes the store hands out.
import type { Kysely } from 'kysely';

export interface InboxRow {
  inbox_id: string;
  org_id: string;
  pod_id: string;
  display_name: string | null;
  client_id: string | null;
  metadata: string | null;
  created_at: string;
  updated_at: string;
}

export interface MessageRow {
  id: string;
  inbox_id: string;
  message_id: string;
  thread_id: string;
  labels: string;
  timestamp: string;
  from_addr: string;
  to_addrs: string;
  cc_addrs: string | null;
  bcc_addrs: string | null;
  reply_to: string | null;
  subject: string | null;
  preview: string | null;
  text_body: string | null;
  html_body: string | null;
  extracted_text: string | null;
  extracted_html: string | null;
  attachments: string | null;
  in_reply_to: string | null;
  refs: string | null;
  headers: string | null;
  size: number;
  created_at: string;
  updated_at: string;
}

export interface ThreadRow {
  thread_id: string;
  inbox_id: string;
  subject: string | null;
  preview: string | null;
  labels: string;
  senders: string;
  recipients: string;
  attachments: string | null;
  last_message_id: string;
  message_count: number;
  size: number;
  timestamp: string;
  received_timestamp: string | null;
  sent_timestamp: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookRow {
  webhook_id: string;
  org_id: string;
  url: string;
  event_types: string;
  inbox_ids: string | null;
  pod_ids: string | null;
  secret: string;
  enabled: number;
  client_id: string | null;
  headers: string | null;
  created_at: string;
  updated_at: string;
  /** How the latest delivery went (webhooks/deliver.ts); null until the first. */
  last_delivery_status?: 'succeeded' | 'retrying' | 'failed' | null;
  /** Attempts the latest recorded delivery took. */
  last_delivery_attempts?: number | null;
  /** The latest failed attempt's error and time (kept after a later success). */
  last_delivery_error?: string | null;
  last_error_at?: string | null;
}

/** Mail to other domains held while no relay is set (outbox/outbox.ts). */
export interface OutboxRow {
  outbox_id: string;
  org_id: string | null;
  inbox_id: string | null;
  message_row_id: string | null;
  message_id: string;
  mail_from: string;
  rcpt_to: string;
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  raw: Buffer;
  meta: string | null;
  created_at: string;
}

export interface DraftRow {
  draft_id: string;
  inbox_id: string;
  org_id: string;
  client_id: string | null;
  body: string;
  labels: string;
  send_at: string | null;
  send_status: string | null;
  created_at: string;
  updated_at: string;
}

export interface PodRow {
  pod_id: string;
  org_id: string;
  name: string;
  client_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface DomainRow {
  domain_id: string;
  domain: string;
  org_id: string;
  pod_id: string | null;
  client_id: string | null;
  status: string;
  feedback_enabled: number;
  subdomains_enabled: number;
  tracking_enabled: number;
  dkim_selector: string;
  dkim_private_key: string;
  dkim_public_key: string;
  record_status: string | null;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ListEntryRow {
  org_id: string;
  /** '' when the entry is organization-wide. */
  pod_id: string;
  /** '' unless the entry is for one inbox. */
  inbox_id: string;
  direction: string;
  list_type: string;
  entry: string;
  entry_type: string;
  reason: string | null;
  created_at: string;
}

export interface ApiKeyRow {
  api_key_id: string;
  org_id: string;
  pod_id: string | null;
  inbox_id: string | null;
  name: string;
  prefix: string;
  permissions: string | null;
  used_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One label added to or removed from a message (AgentMail's inbox events). */
export interface InboxEventRow {
  /** Sorts in the order the events happened. */
  event_id: string;
  inbox_id: string;
  message_id: string;
  event_type: 'label.added' | 'label.removed';
  label: string;
  event_at: string;
}

/** An organization an agent signed up for itself, restricted until a person confirms it. */
export interface AgentOrgRow {
  org_id: string;
  username: string;
  inbox_id: string;
  /** The key sign-up handed out last (a repeat sign-up replaces it). */
  api_key_id: string;
  human_email: string | null;
  /** How often the attached person was replaced by another (at most 2). */
  human_changes: number;
  /** SHA-256 of the organization id and the current 6-digit code; null when none was issued. */
  otp_digest: string | null;
  otp_issued_at: string | null;
  otp_attempts: number;
  /** The UTC day (YYYY-MM-DD, platform clock) sent_count counts; unverified organizations may send 10 a day. */
  sent_day: string | null;
  sent_count: number;
  source: string | null;
  referrer: string | null;
  verified_at: string | null;
  created_at: string;
  updated_at: string;
}

/** A provider of AgentID sign-ins (a site that accepts "Sign in with AgentMail"), registered by an organization. */
export interface ProviderRow {
  provider_id: string;
  org_id: string;
  name: string;
  description: string | null;
  logo_url: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  /** 1: in the catalog (list, search); 0: read and connected by its id only. */
  listed: number;
  owner_signup_limit: number | null;
  created_at: string;
  updated_at: string;
}

/** One sign-in under way: a connect's magic link (flow `connect`) or a provider's waiting sign-in (flow `authorize`). */
export interface SignInRow {
  token: string;
  flow: 'connect' | 'authorize';
  provider_id: string;
  org_id: string | null;
  inbox_id: string | null;
  /** The pending key the sign-in activates, once an agent connected or authorized it. */
  api_key_id: string | null;
  /** The bearer key that authorized it (a repeat by the same key answers the same key id). */
  authorized_by: string | null;
  /** The waiting client's public JWK (JSON), when it gave one on starting. */
  public_key: string | null;
  /** waiting (for an agent), authorized (for the client), completed. */
  status: 'waiting' | 'authorized' | 'completed';
  expires_at: string;
  created_at: string;
}

/** A sign-in credential: AgentMail's public-key API key with a status. */
export interface SignInKeyRow {
  api_key_id: string;
  org_id: string;
  pod_id: string;
  inbox_id: string;
  provider_id: string;
  name: string;
  status: 'pending' | 'active';
  /** The client's public JWK (JSON) and its RFC 7638 thumbprint, once it proved it. */
  public_key: string | null;
  fingerprint: string | null;
  /** JSON: exactly provider_connect and provider_share_owner, from the key that created it. */
  permissions: string;
  created_by: string;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
}

/** One inbox signed in at one provider. */
export interface AccountRow {
  account_id: string;
  provider_id: string;
  inbox_id: string;
  pod_id: string;
  org_id: string;
  first_signed_in_at: string;
  last_signed_in_at: string;
  sign_in_count: number;
}

export interface MailTables {
  mail_providers: ProviderRow;
  mail_sign_ins: SignInRow;
  mail_sign_in_keys: SignInKeyRow;
  mail_accounts: AccountRow;
  mail_inbox_events: InboxEventRow;
  mail_agent_orgs: AgentOrgRow;
  mail_pods: PodRow;
  mail_domains: DomainRow;
  mail_list_entries: ListEntryRow;
  mail_api_keys: ApiKeyRow;
  mail_drafts: DraftRow;
  mail_inboxes: InboxRow;
  mail_messages: MessageRow;
  mail_threads: ThreadRow;
  mail_raw: { id: string; raw: Buffer };
  mail_webhooks: WebhookRow;
  mail_outbox: OutboxRow;
  mail_idempotency: { org_id: string; key: string; request_hash: string; response: string; created_at: string };
  mail_secrets: { name: string; value: string };
}

export type Tx = Kysely<MailTables>;

/** Columns of a message list row (MessageItem): no bodies. */
export const MESSAGE_ITEM_COLUMNS = [
  'id',
  'inbox_id',
  'thread_id',
  'message_id',
  'labels',
  'timestamp',
  'from_addr',
  'to_addrs',
  'cc_addrs',
  'bcc_addrs',
  'subject',
  'preview',
  'attachments',
  'in_reply_to',
  'refs',
  'size',
  'created_at',
  'updated_at',
] as const;
export type MessageItemRow = Pick<MessageRow, (typeof MESSAGE_ITEM_COLUMNS)[number]>;

/** A keyset cursor position: the sort value and the id that breaks ties. */
export type Cursor = [sortKey: string, id: string];

export interface MessageFilters {
  /** Search terms: each must occur (any case) in the sender, recipients, subject or text. */
  terms?: string[];
  labels?: string[];
  before?: string;
  after?: string;
  ascending?: boolean;
  /** Labels that hide a message unless asked for (trash, spam, blocked, unauthenticated). */
  exclude: string[];
  from?: string[];
  to?: string[];
  subject?: string[];
}

export interface ThreadFilters extends Omit<MessageFilters, 'from' | 'to' | 'terms'> {
  /** Search terms: each must occur (any case) in the senders, recipients, subject or preview. */
  terms?: string[];
  senders?: string[];
  recipients?: string[];
}
