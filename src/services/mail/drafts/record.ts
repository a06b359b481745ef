// A draft row as the API answers it: the list form leaves out bodies and other full-only fields.
import { firstChars } from '../../../platform/html.js';
import type { DraftRow } from '../store/index.js';
import type { DraftFields } from './drafts.js';

export function draftRecord(r: DraftRow, full: boolean) {
  const f = JSON.parse(r.body) as DraftFields;
  const nonEmpty = (a?: string[]) => (a && a.length ? a : undefined);
  const preview = f.text ? firstChars(f.text.replace(/\s+/g, ' ').trim(), 200) : undefined;
  const out: Record<string, unknown> = {
    inbox_id: r.inbox_id,
    draft_id: r.draft_id,
    ...(full && r.client_id ? { client_id: r.client_id } : {}),
    labels: JSON.parse(r.labels),
    ...(full && nonEmpty(f.reply_to) ? { reply_to: f.reply_to } : {}),
    ...(nonEmpty(f.to) ? { to: f.to } : {}),
    ...(nonEmpty(f.cc) ? { cc: f.cc } : {}),
    ...(nonEmpty(f.bcc) ? { bcc: f.bcc } : {}),
    ...(f.subject !== undefined ? { subject: f.subject } : {}),
    ...(preview ? { preview } : {}),
    ...(full && f.text !== undefined ? { text: f.text } : {}),
    ...(full && f.html !== undefined ? { html: f.html } : {}),
    ...(f.attachments?.length ? { attachments: f.attachments.map(({ content: _c, ...meta }) => meta) } : {}),
    ...(f.in_reply_to ? { in_reply_to: f.in_reply_to } : {}),
    ...(f.forward_of ? { forward_of: f.forward_of } : {}),
    ...(full && f.references?.length ? { references: f.references } : {}),
    ...(r.send_status ? { send_status: r.send_status } : {}),
    ...(r.send_at ? { send_at: r.send_at } : {}),
    updated_at: r.updated_at,
    ...(full ? { created_at: r.created_at } : {}),
  };
  return out;
}
