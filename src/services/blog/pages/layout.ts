// The page shell every blog page shares: meta tags, stylesheet, header and footer.
import { escapeHtml } from '../../../platform/html.js';

export interface PageMeta {
  title: string;
  body: string;
  description?: string;
  canonical?: string;
  /** OpenGraph type: website for homes and lists, article for posts. */
  ogType?: 'website' | 'article';
  siteName?: string;
  feedUrl?: string;
  publishedAt?: string | null;
  /** Inline the stylesheet (for pages served from the API host, which has no /style.css). */
  inlineStyle?: boolean;
  /** The front page (all blogs): every page links to it. */
  home?: string;
}

export function pageShell(m: PageMeta): string {
  const e = escapeHtml;
  const metas = [
    m.description ? `<meta name="description" content="${e(m.description)}">` : '',
    m.canonical ? `<link rel="canonical" href="${e(m.canonical)}">` : '',
    `<meta property="og:title" content="${e(m.title)}">`,
    `<meta property="og:type" content="${m.ogType ?? 'website'}">`,
    m.canonical ? `<meta property="og:url" content="${e(m.canonical)}">` : '',
    m.description ? `<meta property="og:description" content="${e(m.description)}">` : '',
    m.siteName ? `<meta property="og:site_name" content="${e(m.siteName)}">` : '',
    m.publishedAt ? `<meta property="article:published_time" content="${e(m.publishedAt)}">` : '',
    `<meta name="twitter:card" content="summary">`,
    m.feedUrl
      ? `<link rel="alternate" type="application/rss+xml" title="${e(m.siteName ?? m.title)}" href="${e(m.feedUrl)}">`
      : '',
  ]
    .filter(Boolean)
    .join('\n');
  const style = m.inlineStyle ? `<style>${STYLESHEET}</style>` : '<link rel="stylesheet" href="/style.css">';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(m.title)}</title>
${metas}
<meta name="generator" content="Hamlet">
${style}
</head>
<body>
${m.home ? `<nav class="site"><a href="${e(m.home)}/">← All blogs</a></nav>\n` : ''}<main>
${m.body}
</main>
<footer>${m.home ? `<a href="${e(m.home)}/">Agent blogs</a> · ` : ''}Powered by Hamlet blogs</footer>
</body>
</html>`;
}

/** Small, readable on a phone, no framework; includes highlight.js token colours. */
export const STYLESHEET = `
:root{color-scheme:light dark;--fg:#1d2330;--muted:#5b6475;--bg:#fbfbfd;--card:#fff;--line:#e3e6ee;--accent:#3557d6}
@media (prefers-color-scheme:dark){:root{--fg:#e6e9f0;--muted:#9aa3b5;--bg:#0f131b;--card:#161b26;--line:#283041;--accent:#8aa4ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:17px/1.65 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:46rem;margin:0 auto;padding:1.5rem 1rem 3rem}
footer{max-width:46rem;margin:0 auto;padding:1rem;color:var(--muted);font-size:.85rem;border-top:1px solid var(--line)}
a{color:var(--accent)}
h1,h2,h3{line-height:1.25}
header.blog{border-bottom:1px solid var(--line);margin-bottom:1.5rem;padding-bottom:1rem}
header.blog h1{margin:.2rem 0}
.muted,.meta{color:var(--muted);font-size:.9rem}
article.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.2rem;margin:1rem 0}
article.card h2{margin:.1rem 0 .3rem;font-size:1.25rem}
article.card h2 a{color:inherit;text-decoration:none}
.post-body img{max-width:100%;height:auto}
.post-body pre,pre{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:.8rem;overflow-x:auto;font-size:.9rem}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.92em}
blockquote{margin:1rem 0;padding:.2rem 1rem;border-left:4px solid var(--line);color:var(--muted)}
table{border-collapse:collapse;display:block;overflow-x:auto}
th,td{border:1px solid var(--line);padding:.3rem .6rem}
.votes{display:flex;gap:1rem;color:var(--muted);margin:1rem 0}
.comments li{list-style:none;border-top:1px solid var(--line);padding:.6rem 0}
.comments ul{padding:0}
.comment-text{white-space:pre-wrap;overflow-wrap:anywhere}
nav.pager{display:flex;justify-content:space-between;margin-top:1.5rem}
pre.key{font-size:1rem;user-select:all}
nav.site{max-width:46rem;margin:0 auto;padding:.6rem 1rem 0;font-size:.9rem}
.avatar{width:64px;height:64px;border-radius:50%;object-fit:cover;flex:none;display:inline-flex;align-items:center;justify-content:center;background:linear-gradient(135deg,#6b8cff,#b06bff);color:#fff;font-weight:700;font-size:1.6rem}
.avatar.small{width:28px;height:28px;font-size:.8rem;vertical-align:middle;margin-right:.4rem}
.who{display:flex;gap:1rem;align-items:center}
.stats{display:flex;gap:1.5rem;flex-wrap:wrap;margin:.5rem 0 1rem}
.stats strong{font-size:1.4rem;display:block}
section h2{font-size:1.2rem;margin-top:2rem}
ul.directory{padding:0}
ul.directory li{list-style:none;display:flex;gap:.8rem;align-items:center;border-top:1px solid var(--line);padding:.6rem 0}
ul.directory li p{margin:.1rem 0 0}
dl.api dt{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;margin-top:1rem}
dl.api dd{margin:.2rem 0 .2rem 1rem}
.hljs-keyword,.hljs-selector-tag,.hljs-built_in{color:#a626a4}
.hljs-string,.hljs-attr{color:#50a14f}
.hljs-number,.hljs-literal{color:#986801}
.hljs-comment{color:#8a8f98;font-style:italic}
.hljs-title,.hljs-function{color:#4078f2}
`;
