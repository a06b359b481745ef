// How the mail pages draw the mail API's records. Everything from a message goes through
// `h` (escaped); its HTML body is shown only inside a sandboxed iframe (see messageBody).
import { h, markup, when, type Fragment } from '../../../platform/console-layout.js';
import type { OutboxItem } from '../outbox/outbox.js';

export { h, markup, when, type Fragment };

export interface MessageJson {
  inbox_id: string;
  thread_id: string;
  message_id: string;
  labels: string[];
  timestamp: string;
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  subject?: string;
  preview?: string;
  attachments?: AttachmentJson[];
  size?: number;
  text?: string;
  html?: string;
  headers?: Record<string, string>;
}

export interface AttachmentJson {
  attachment_id: string;
  filename?: string;
  content_type?: string;
  size?: number;
}

export interface ThreadJson {
  inbox_id: string;
  thread_id: string;
  labels: string[];
  timestamp: string;
  senders: string[];
  recipients: string[];
  subject?: string;
  preview?: string;
  message_count: number;
}

/** A held message as GET /v0/outbox answers it (the outbox's own record). */
export type OutboxJson = OutboxItem;

/** Labels people filter by; the hiding ones need the API's include_* switch to show up at all. */
export const FILTER_LABELS = [
  'unread',
  'read',
  'received',
  'sent',
  'delivered',
  'queued',
  'bounced',
  'blocked',
  'spam',
  'trash',
];
export const HIDING_LABELS = ['blocked', 'spam', 'trash', 'unauthenticated'];

export const enc = encodeURIComponent;
export const inboxPath = (inbox: string) => `/mail/inboxes/${enc(inbox)}`;
export const messagePath = (inbox: string, message: string) => `${inboxPath(inbox)}/messages/${enc(message)}`;
export const threadPath = (inbox: string, thread: string) => `${inboxPath(inbox)}/threads/${enc(thread)}`;

/** A time people read (UTC, to the minute), with the exact value for machines. */
export function labelChips(labels: string[]) {
  return h`<span class="chips">${labels.map((l) => h`<span class="chip">${l}</span>`)}</span>`;
}

function size(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function messageRows(messages: MessageJson[], empty: string) {
  if (!messages.length) return h`<p class="muted">${empty}</p>`;
  return h`<ul class="mail-list">${messages.map(
    (m) => h`<li class="${m.labels.includes('unread') ? 'unread' : ''}">
<a href="${messagePath(m.inbox_id, m.message_id)}"><span class="subject">${m.subject || '(no subject)'}</span></a>
<span class="from">${m.labels.includes('sent') ? `to ${m.to.join(', ')}` : m.from}</span> ${when(m.timestamp)}
${m.attachments?.length ? h`<span class="muted">· ${m.attachments.length} attachment${m.attachments.length === 1 ? '' : 's'}</span>` : ''}
<div class="preview muted">${m.preview ?? ''}</div>${labelChips(m.labels)}</li>`,
  )}</ul>`;
}

export function threadRows(threads: ThreadJson[], empty: string) {
  if (!threads.length) return h`<p class="muted">${empty}</p>`;
  return h`<ul class="mail-list">${threads.map(
    (
      t,
    ) => h`<li><a href="${threadPath(t.inbox_id, t.thread_id)}"><span class="subject">${t.subject || '(no subject)'}</span></a>
<span class="muted">(${t.message_count})</span> <span class="from">${t.senders.join(', ')}</span> ${when(t.timestamp)}
<div class="preview muted">${t.inbox_id} · ${t.preview ?? ''}</div>${labelChips(t.labels)}</li>`,
  )}</ul>`;
}

/**
 * A message's body the way Mailpit shows it: the HTML in an iframe with `sandbox` and neither
 * allow-scripts nor allow-same-origin (no script runs, the frame has an opaque origin, no forms),
 * with a CSP that loads nothing from elsewhere (no tracking pixels, no remote CSS); the text when
 * there is no HTML. Links open in a new tab (allow-popups), so a verification link can be followed.
 */
export function messageBody(m: { html?: string; text?: string }) {
  if (!m.html) return h`<pre class="mail-text">${m.text ?? '(no body)'}</pre>`;
  const doc = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${FRAME_CSP}"><base target="_blank">${m.html}`;
  return h`<iframe class="mail-html" title="The message's HTML (scripts and remote content blocked)" sandbox="allow-popups allow-popups-to-escape-sandbox" srcdoc="${doc}"></iframe>
${m.text ? h`<details><summary>Text version</summary><pre class="mail-text">${m.text}</pre></details>` : ''}`;
}

const FRAME_CSP = "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:";
/**
 * The message page's own policy: the iframe's srcdoc inherits it, so remote images and
 * stylesheets stay blocked even if the mail's markup tries to undo the inner one.
 */
export const MESSAGE_PAGE_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export function addressLine(label: string, list: string[] | undefined) {
  return list?.length ? h`<dt>${label}</dt><dd>${list.join(', ')}</dd>` : '';
}

export function attachmentList(inbox: string, message: string, attachments: AttachmentJson[] | undefined) {
  if (!attachments?.length) return '';
  return h`<h2>Attachments</h2><ul class="attachments">${attachments.map(
    (
      a,
    ) => h`<li><a href="${messagePath(inbox, message)}/attachments/${enc(a.attachment_id)}" download>${a.filename ?? a.attachment_id}</a>
<span class="muted">${a.content_type ?? ''} ${size(a.size)}</span></li>`,
  )}</ul>`;
}

/** "Older" goes one API page on (page tokens only go forward); "Newest" back to the first. */
export function pager(
  path: string,
  params: Record<string, string | undefined>,
  next: string | undefined,
  onFirstPage: boolean,
) {
  const link = (token?: string) => {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries({ ...params, page: token })) if (v) q.set(k, v);
    const s = q.toString();
    return s ? `${path}?${s}` : path;
  };
  if (!next && onFirstPage) return '';
  return h`<nav class="pager" aria-label="Pages">${onFirstPage ? '' : h`<a class="button" href="${link()}">← Newest</a>`}
${next ? h`<a class="button" rel="next" href="${link(next)}">Older →</a>` : ''}</nav>`;
}
