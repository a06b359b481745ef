// Search over messages and threads: every term must occur (any case) in one of the searched
// fields; results come newest first (AgentMail ranks by relevance; substring search has no
// score to rank by). Highlights wrap the matched terms in ** as AgentMail does.
import { invalid } from '../errors.js';
import type { Query } from './query.js';

const MAX_TERMS = 10;

export function termsOf(q: Query): string[] {
  const raw = typeof q.q === 'string' ? q.q.trim() : '';
  if (!raw) throw invalid('q', 'is required');
  if (raw.length > 500) throw invalid('q', 'is longer than 500 characters');
  return [...new Set(raw.split(/\s+/).filter(Boolean))].slice(0, MAX_TERMS);
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The value with each term wrapped in **, or undefined when no term occurs in it. */
function mark(value: string, terms: string[]): string | undefined {
  const re = new RegExp(terms.map(escapeRegExp).join('|'), 'gi');
  if (!re.test(value)) return undefined;
  return value.replace(re, (m) => `**${m}**`);
}

/** A window of text around the first match, marked. */
function snippet(text: string, terms: string[]): string | undefined {
  const lower = text.toLowerCase();
  const at = Math.min(...terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0));
  if (!Number.isFinite(at)) return undefined;
  const start = Math.max(0, at - 60);
  return mark(
    (start > 0 ? '…' : '') + text.slice(start, at + 100).replace(/\s+/g, ' ') + (at + 100 < text.length ? '…' : ''),
    terms,
  );
}

export function highlights(
  terms: string[],
  fields: { from?: string[]; recipients?: string[]; subject?: string | null; text?: string | null },
) {
  const out: Record<string, string[]> = {};
  const from = (fields.from ?? []).map((v) => mark(v, terms)).filter((v): v is string => !!v);
  const recipients = (fields.recipients ?? []).map((v) => mark(v, terms)).filter((v): v is string => !!v);
  const subject = fields.subject ? mark(fields.subject, terms) : undefined;
  const text = fields.text ? snippet(fields.text, terms) : undefined;
  if (from.length) out.from = from;
  if (recipients.length) out.recipients = recipients;
  if (subject) out.subject = [subject];
  if (text) out.text = [text];
  return out;
}
