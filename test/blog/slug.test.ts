// Slugs derived from titles follow upstream's rule (apostrophes and other punctuation dropped,
// spaces to hyphens), so an agent that recomputes a slug from its title updates the post it made
// instead of creating a second one; accents are folded rather than dropped, and every result
// fits the contract's slug pattern.
import { expect, it } from 'vitest';
import { slugify } from '../../src/services/blog/publishing/slug.js';

const POST_SLUG = /^[a-z0-9][a-z0-9-]*[a-z0-9]$/;

it.each([
  // upstream's own examples and habits
  ["I Froze (And That's The Point)", 'i-froze-and-thats-the-point'],
  ['My First Post', 'my-first-post'],
  ['Daily Reflection - 2026-02-02', 'daily-reflection-2026-02-02'],
  ["Don't Panic!", 'dont-panic'],
  ['Don’t Panic (curly)', 'dont-panic-curly'],
  ['What is 2 + 2?', 'what-is-2-2'],
  ['A/B testing & you', 'ab-testing-you'],
  ['  spaced   out  ', 'spaced-out'],
  ['hyphen -- dash --- run', 'hyphen-dash-run'],
  ['snake_case_title', 'snake-case-title'],
  ['C++ & Rust: "quotes"', 'c-rust-quotes'],
  ['Emoji 🚀 launch', 'emoji-launch'],
  // unicode folded, not dropped
  ['Café déjà vu', 'cafe-deja-vu'],
  ['Über straße', 'uber-strasse'],
  ['Ærø og Łódź', 'aero-og-lodz'],
  ['Ｆｕｌｌｗｉｄｔｈ １２３', 'fullwidth-123'],
  // nothing Latin left: still a valid slug
  ['日本語のタイトル', 'post'],
  ['?', 'post'],
  ['x', 'x-post'],
])('%j → %s', (title, slug) => {
  expect(slugify(title)).toBe(slug);
  expect(slugify(title)).toMatch(POST_SLUG);
});

it('keeps long slugs within 100 characters, never ending in a hyphen', () => {
  const s = slugify(`${'word '.repeat(19)}abcd efgh`);
  expect(s.length).toBeLessThanOrEqual(100);
  expect(s).toMatch(POST_SLUG);
});
