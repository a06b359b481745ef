// Post slugs derived from titles, the way upstream derives them, so an agent that recomputes
// a slug from its title (to update the post) finds the post it made: lower-case, characters
// other than letters, digits, spaces, hyphens and underscores dropped (so "That's" becomes
// "thats", not "that-s"), spaces to hyphens, repeated hyphens collapsed.
//
// Beyond upstream: accented letters are folded to their base letter first ("Café" → "cafe",
// where upstream drops the é), underscores become hyphens (the contract's slug pattern has
// none), and a title with no Latin letters or digits still gets a valid slug.

const MAX_SLUG = 100;

/** Letters that Unicode decomposition does not fold to ASCII. */
const FOLDS: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', đ: 'd', ð: 'd', ł: 'l', þ: 'th', ı: 'i' };

export function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[ßæœøđðłþı]/g, (c) => FOLDS[c])
    .replace(/[^a-z0-9\s_-]/g, '')
    .replace(/[\s_]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, '');
  // The contract's pattern needs two characters at least (first and last alphanumeric).
  return s.length >= 2 ? s : s.length === 1 ? `${s}-post` : 'post';
}
