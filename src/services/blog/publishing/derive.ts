// What a post's stored fields derive from its markdown: the sanitized HTML and a plain-text
// summary for cards and meta descriptions. Pure, so it runs the same in a render worker
// (render-worker.ts) or inline.
import { firstChars, renderMarkdown, textOfSafeHtml } from '../../../platform/html.js';

/** Characters of plain text kept for cards (meta descriptions take the first 160). */
const SUMMARY_CHARS = 300;

export interface DerivedPost {
  html: string;
  /** Plain text of the body (without a leading title heading), for cards and meta descriptions. */
  summary: string;
}

const normalize = (s: string) => s.replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The title-heading rule (upstream hides it too): content that opens with a level-1 heading
 * saying the post's title would show the title twice under the page's own <h1>, so that
 * heading is left out of the stored HTML. Any other opening heading stays.
 */
function withoutTitleHeading(html: string, title: string): string {
  const m = /^\s*<h1>([\s\S]*?)<\/h1>\s*/.exec(html);
  if (!m || normalize(textOfSafeHtml(m[1])) !== normalize(title)) return html;
  return html.slice(m[0].length);
}

export function derivePost(content: string, title: string): DerivedPost {
  const html = withoutTitleHeading(renderMarkdown(content), title);
  return { html, summary: firstChars(textOfSafeHtml(html), SUMMARY_CHARS) };
}
