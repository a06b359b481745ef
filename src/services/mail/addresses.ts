// E-mail addresses as the API takes them ("a@x", "Name <a@x>", a string or an array of them)
// and as messages store them (strings, display names kept).
import addressparser from 'nodemailer/lib/addressparser/index.js';
import { invalid } from './errors.js';

// Deliberately simple: a local part without spaces or angle brackets, a dotted domain.
const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;

export const isAddress = (s: string): boolean => s.length <= 254 && ADDRESS.test(s);

const USERNAME = /^[a-z0-9](?:[a-z0-9._+-]{0,62}[a-z0-9])?$/;

/** An inbox's username (the part before @), lower-cased; throws a 400 naming `field` when it cannot be one. */
export function inboxUsername(value: string, field = 'username'): string {
  const username = value.toLowerCase();
  if (!USERNAME.test(username))
    throw invalid(
      field,
      'may hold letters, digits, dot, dash, underscore and plus, and must start and end with a letter or digit',
      'INVALID_EMAIL',
    );
  return username;
}

/** The bare, lower-cased address of "Name <a@x>" or "a@x". */
export function bareAddress(value: string): string {
  const m = /<([^<>]*)>\s*$/.exec(value);
  return (m ? m[1] : value).trim().toLowerCase();
}

/**
 * Normalizes a recipient field to an array of strings, each checked. Throws a 400 naming the
 * field, with code INVALID_EMAIL for a bad address.
 */
export function recipients(field: string, value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const list = Array.isArray(value) ? value : [value];
  const out: string[] = [];
  for (const item of list) {
    if (typeof item !== 'string') throw invalid(field, 'must be a string or an array of strings');
    // "a@x, b@y" in one string is two recipients, as in a To: header.
    const parsed = addressparser(item, { flatten: true }) as Array<{ name: string; address: string }>;
    if (!parsed.length) throw invalid(field, `"${item}" is not a valid e-mail address`, 'INVALID_EMAIL');
    for (const p of parsed) {
      if (!p.address || !isAddress(p.address))
        throw invalid(field, `"${item}" is not a valid e-mail address`, 'INVALID_EMAIL');
      out.push(p.name ? `${p.name} <${p.address}>` : p.address);
    }
  }
  return out;
}

/** Addresses minus duplicates (by bare address), keeping the first spelling. */
export function distinct(list: string[]): string[] {
  const seen = new Set<string>();
  return list.filter((a) => {
    const k = bareAddress(a);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

export const domainOf = (address: string): string => bareAddress(address).split('@')[1] ?? '';
