// One place turns raw RFC 5322 bytes into the fields a message record stores, whichever way
// the message came (SMTP, a local send, the platform mailer): mailparser does the MIME work.
import type { AddressObject, ParsedMail } from 'mailparser';
import { firstChars, sanitize } from '../../../platform/html.js';
import { uuid } from '../../../platform/ids.js';
import { emailReplyParser, mailparser, sanitizeHtml } from '../../../platform/optional-modules.js';

export interface AttachmentMeta {
  attachment_id: string;
  size: number;
  filename?: string;
  content_type?: string;
  content_disposition?: 'inline' | 'attachment';
  content_id?: string;
}

export interface ParsedMessage {
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject?: string;
  text?: string;
  html?: string;
  extractedText?: string;
  extractedHtml?: string;
  preview?: string;
  attachments: AttachmentMeta[];
  inReplyTo?: string;
  references: string[];
  headers: Record<string, string>;
  size: number;
}

/** Largest header block accepted: real mail stays far below; anything bigger is abuse. */
const MAX_HEADER_BYTES = 256 * 1024;
const MAX_HEADERS_KEPT = 200;
const PREVIEW_CHARS = 200;

export class MalformedMessageError extends Error {}

// PostgreSQL text cannot hold NUL, and 8-bit garbage may decode to it: drop it everywhere.
const clean = (s: string | undefined): string | undefined => (s === undefined ? undefined : s.replaceAll('\u0000', ''));

const formatAddress = (a: { name?: string; address?: string }): string | undefined => {
  if (!a.address) return undefined;
  const name = clean(a.name)?.replace(/[<>"]/g, '').trim();
  return name ? `${name} <${clean(a.address)}>` : clean(a.address);
};

function addressList(field: AddressObject | AddressObject[] | undefined): string[] {
  if (!field) return [];
  const out: string[] = [];
  for (const obj of Array.isArray(field) ? field : [field]) {
    for (const v of obj.value) {
      for (const member of v.group ?? [v]) {
        const s = formatAddress(member);
        if (s) out.push(s);
      }
    }
  }
  return out;
}

/** The header block's length, or -1 when the message has no blank line ending it. */
function headerLength(raw: Buffer): number {
  const crlf = raw.indexOf('\r\n\r\n');
  const lf = raw.indexOf('\n\n');
  if (crlf === -1) return lf;
  if (lf === -1) return crlf;
  return Math.min(crlf, lf);
}

/** Text without the quoted history a reply carries. */
function extractText(text: string): string {
  try {
    return new (emailReplyParser())().parseReply(text).trim();
  } catch {
    return text.trim();
  }
}

/** HTML without quoted history (blockquotes, Gmail/Outlook quote blocks), then sanitized. */
function extractHtml(html: string): string {
  // Most mail quotes nothing: then one sanitizing pass is all it needs.
  if (!/<blockquote|gmail_quote|moz-cite-prefix|OutlookMessageHeader/i.test(html)) return sanitize(html);
  const withoutQuotes = sanitizeHtml()(html, {
    // Everything stays in this first pass (sanitize() below decides what is safe); only quotes go.
    allowedTags: false,
    allowedAttributes: false,
    allowVulnerableTags: true,
    exclusiveFilter: (frame) =>
      frame.tag === 'blockquote' ||
      /\b(gmail_quote|moz-cite-prefix|OutlookMessageHeader)\b/.test(frame.attribs?.class ?? ''),
  });
  return sanitize(withoutQuotes);
}

export async function parseMessage(raw: Buffer, fallbackDomain: string): Promise<ParsedMessage> {
  const hl = headerLength(raw);
  if (hl > MAX_HEADER_BYTES || (hl === -1 && raw.length > MAX_HEADER_BYTES)) {
    throw new MalformedMessageError(`header block larger than ${MAX_HEADER_BYTES} bytes`);
  }
  let mail: ParsedMail;
  try {
    // skipImageLinks keeps cid: references instead of inlining images as data: URIs.
    mail = await mailparser().simpleParser(raw, { skipImageLinks: true, skipTextToHtml: true, keepCidLinks: true });
  } catch (err) {
    throw new MalformedMessageError(`message could not be parsed: ${(err as Error).message}`);
  }
  const text = clean(mail.text);
  const html = mail.html ? clean(mail.html) : undefined;
  const headers: Record<string, string> = {};
  for (const line of mail.headerLines.slice(0, MAX_HEADERS_KEPT)) {
    const idx = line.line.indexOf(':');
    if (idx <= 0) continue;
    const name = line.line.slice(0, idx).trim();
    if (headers[name] === undefined)
      headers[name] = clean(
        line.line
          .slice(idx + 1)
          .replace(/\r?\n[ \t]+/g, ' ')
          .trim(),
      )!.slice(0, 4000);
  }
  const references = (
    Array.isArray(mail.references) ? mail.references : mail.references ? mail.references.split(/\s+/) : []
  )
    .map((r) => clean(r)!.trim())
    .filter(Boolean);
  const extractedText = text !== undefined ? extractText(text) : undefined;
  const previewSource = (
    extractedText ||
    text ||
    (html ? sanitizeHtml()(html, { allowedTags: [], allowedAttributes: {} }) : '')
  )
    .replace(/\s+/g, ' ')
    .trim();
  return {
    messageId: clean(mail.messageId)?.trim() || `<${uuid()}@${fallbackDomain}>`,
    from: addressList(mail.from)[0] ?? 'unknown@unknown.invalid',
    to: addressList(mail.to),
    cc: addressList(mail.cc),
    bcc: addressList(mail.bcc),
    replyTo: addressList(mail.replyTo),
    subject: clean(mail.subject),
    text,
    html,
    extractedText,
    extractedHtml: html !== undefined ? extractHtml(html) : undefined,
    preview: previewSource ? firstChars(previewSource, PREVIEW_CHARS) : undefined,
    attachments: mail.attachments.map((a, i) => ({
      attachment_id: `att_${i + 1}`,
      size: a.size ?? a.content.length,
      ...(a.filename ? { filename: clean(a.filename) } : {}),
      ...(a.contentType ? { content_type: a.contentType } : {}),
      content_disposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
      ...(a.cid ? { content_id: clean(a.cid) } : {}),
    })),
    inReplyTo: clean(mail.inReplyTo)?.trim() || undefined,
    references,
    headers,
    size: raw.length,
  };
}

/** The bytes of one attachment of a raw message (parsed again: attachments are not stored twice). */
export async function attachmentContent(
  raw: Buffer,
  attachmentId: string,
): Promise<{ meta: AttachmentMeta; content: Buffer } | undefined> {
  const m = /^att_(\d+)$/.exec(attachmentId);
  if (!m) return undefined;
  const mail = await mailparser().simpleParser(raw, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipHtmlToText: true,
    keepCidLinks: true,
  });
  const a = mail.attachments[Number(m[1]) - 1];
  if (!a) return undefined;
  return {
    meta: {
      attachment_id: attachmentId,
      size: a.size ?? a.content.length,
      ...(a.filename ? { filename: a.filename } : {}),
      ...(a.contentType ? { content_type: a.contentType } : {}),
      content_disposition: a.contentDisposition === 'inline' ? 'inline' : 'attachment',
      ...(a.cid ? { content_id: a.cid } : {}),
    },
    content: a.content,
  };
}

/** All attachments with their bytes, for forwarding. */
export async function allAttachments(raw: Buffer) {
  const mail = await mailparser().simpleParser(raw, {
    skipImageLinks: true,
    skipTextToHtml: true,
    skipHtmlToText: true,
    keepCidLinks: true,
  });
  return mail.attachments;
}
