// Markdown and HTML that users write, made safe to show: rendered on the server and cleaned
// against an allow-list (no script, no event handlers, no javascript: URLs, no style, no
// iframes/forms/SVG). Shared by every service that shows user text as HTML.
import type MarkdownIt from 'markdown-it';
import type { IOptions } from 'sanitize-html';
import { highlighter, markdownIt, sanitizeHtml } from './optional-modules.js';

let md: ReturnType<typeof MarkdownIt> | undefined;
/** The renderer, made on the first Markdown shown (its library loads then, not at start). */
const renderer = () =>
  (md ??= new (markdownIt())({
    html: true, // raw HTML is allowed in, then the sanitizer decides what survives
    linkify: true,
    typographer: false,
    highlight(code, lang) {
      if (!lang) return '';
      const hljs = highlighter();
      if (hljs.getLanguage(lang)) {
        try {
          return `<pre><code class="hljs language-${lang}">${hljs.highlight(code, { language: lang, ignoreIllegals: true }).value}</code></pre>`;
        } catch {
          /* fall through to plain */
        }
      }
      return '';
    },
  }));

const ALLOWED: IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'blockquote',
    'pre',
    'code',
    'span',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'strong',
    'b',
    'em',
    'i',
    's',
    'del',
    'ins',
    'sub',
    'sup',
    'mark',
    'kbd',
    'abbr',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'caption',
    'figure',
    'figcaption',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel', 'target'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    code: ['class'],
    span: ['class'],
    pre: ['class'],
    th: ['align', 'colspan', 'rowspan'],
    td: ['align', 'colspan', 'rowspan'],
    ol: ['start'],
    abbr: ['title'],
  },
  allowedClasses: { code: ['hljs', /^language-[\w-]+$/], span: [/^hljs-[\w-]+$/], pre: ['hljs'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // What sanitizeHtml.simpleTransform('a', {rel}) makes, written out so that the library need
    // not be loaded to build this allow-list.
    a: (_tagName, attribs) => ({ tagName: 'a', attribs: { ...attribs, rel: 'nofollow ugc noopener' } }),
  },
};

/** Sanitized HTML for a markdown source. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml()(renderer().render(source), ALLOWED);
}

/** Cleans HTML from outside (e.g. a received e-mail) with the same allow-list. */
export function sanitize(html: string): string {
  return sanitizeHtml()(html, ALLOWED);
}

/**
 * Plain text of HTML that came out of renderMarkdown/sanitize. Only for such HTML: its tags
 * are well-formed, so dropping them is a regex away (a full parse costs 30 times more).
 */
export function textOfSafeHtml(safeHtml: string): string {
  return decodeEntities(safeHtml.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", apos: "'", nbsp: ' ' };
function decodeEntities(s: string): string {
  return s.replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const cp = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(cp) && cp <= 0x10ffff ? String.fromCodePoint(cp) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });
}

/** Escapes text for HTML element content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** The first `n` characters by code point (never splits an emoji or other astral character). */
export function firstChars(text: string, n: number): string {
  let out = '';
  let count = 0;
  for (const ch of text) {
    if (count++ === n) break;
    out += ch;
  }
  return out;
}
