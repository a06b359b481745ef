// The pages' one stylesheet, inlined in every page (a few KB, no extra request). Colours are
// variables so that dark mode is only a second set of values, chosen by the reader's system
// setting (prefers-color-scheme): no script, no cookie. Narrow screens get one column, wrapping
// navigation, and tables and code blocks that scroll sideways instead of widening the page.
const LIGHT = `--bg:#fff;--fg:#1a1a1a;--muted:#5f6368;--link:#0b57d0;--border:#dcdcdc;--soft:#f1f3f4;--code-bg:#f6f8fa;--accent:#0b57d0;--on-accent:#fff;
--kw:#a626a4;--str:#50a14f;--num:#986801;--com:#8a8f98;--fn:#4078f2;--type:#c18401`;
const DARK = `--bg:#121417;--fg:#e3e3e3;--muted:#a0a6ad;--link:#8ab4f8;--border:#33373d;--soft:#1e2227;--code-bg:#1a1d22;--accent:#8ab4f8;--on-accent:#121417;
--kw:#c678dd;--str:#98c379;--num:#d19a66;--com:#7f848e;--fn:#61afef;--type:#e5c07b`;

export const STYLE = `:root{color-scheme:light dark;${LIGHT}}
@media (prefers-color-scheme:dark){:root{${DARK}}}
*{box-sizing:border-box}
body{font:16px/1.55 system-ui,-apple-system,"Segoe UI",sans-serif;max-width:48rem;margin:0 auto;padding:0 1rem 2rem;background:var(--bg);color:var(--fg);overflow-wrap:break-word}
a{color:var(--link);text-decoration:none}a:hover{text-decoration:underline}
h1{font-size:1.6rem;line-height:1.25;margin:.75rem 0}h2{font-size:1.25rem}
header.site{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;border-bottom:1px solid var(--border);padding:.75rem 0;margin-bottom:1rem}
header.site .brand{font-weight:700;color:var(--fg)}header.site nav{display:flex;gap:1rem}
header.site form{margin-left:auto;display:flex;gap:.25rem}
input[type=search]{font:inherit;padding:.3rem .5rem;border:1px solid var(--border);border-radius:6px;background:var(--bg);color:var(--fg);min-width:0;width:12rem;max-width:100%}
button{font:inherit;padding:.3rem .75rem;border:1px solid var(--border);border-radius:6px;background:var(--soft);color:var(--fg);cursor:pointer}
nav.tabs{display:flex;flex-wrap:wrap;gap:.25rem;margin:.5rem 0 1rem}
nav.tabs a{padding:.25rem .75rem;border:1px solid var(--border);border-radius:999px;color:var(--fg)}
nav.tabs a[aria-current=page]{background:var(--accent);border-color:var(--accent);color:var(--on-accent)}
.post{display:flex;gap:.75rem;padding:.6rem 0;border-bottom:1px solid var(--border)}
.score{min-width:2.75rem;text-align:center;font-weight:600;color:var(--muted)}
.meta{color:var(--muted);font-size:.85rem}.meta a{color:inherit;font-weight:600}
.card{display:flex;gap:.75rem;align-items:flex-start;padding:.6rem 0;border-bottom:1px solid var(--border)}
.profile{display:flex;gap:1rem;align-items:center;flex-wrap:wrap}.profile h1{margin:0}
.stats{display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;margin:.5rem 0;color:var(--muted)}.stats b{color:var(--fg)}
img.avatar{width:48px;height:48px;border-radius:50%;object-fit:cover;background:var(--soft);flex:none}
img.avatar.large{width:88px;height:88px}img.banner{display:block;width:100%;max-height:12rem;object-fit:cover;border-radius:8px;margin-top:.5rem}
.comments ul{list-style:none;padding-left:1rem;margin:0;border-left:2px solid var(--border)}.comments>ul{padding-left:0;border:0}
.comment{margin:.6rem 0}.deleted{color:var(--muted);font-style:italic}
.content img{max-width:100%;height:auto}
.content pre{background:var(--code-bg);border:1px solid var(--border);border-radius:6px;padding:.75rem;overflow-x:auto;line-height:1.4}
.content code{font:.9em/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:var(--code-bg);padding:.1em .3em;border-radius:4px}
.content pre code{background:none;padding:0;font-size:.875rem}
.content table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse;margin:.75rem 0}
.content th,.content td{border:1px solid var(--border);padding:.35rem .6rem;text-align:left}.content th{background:var(--soft)}
.content tr:nth-child(even) td{background:var(--code-bg)}
.content blockquote{margin:.5rem 0;padding:.1rem 1rem;border-left:4px solid var(--border);color:var(--muted)}
.hljs-keyword,.hljs-selector-tag,.hljs-meta{color:var(--kw)}.hljs-string,.hljs-regexp,.hljs-addition{color:var(--str)}
.hljs-number,.hljs-literal,.hljs-attr{color:var(--num)}.hljs-comment,.hljs-quote{color:var(--com);font-style:italic}
.hljs-title,.hljs-built_in,.hljs-function{color:var(--fn)}.hljs-type,.hljs-class,.hljs-variable{color:var(--type)}
nav.pager{display:flex;gap:1rem;margin:1rem 0}
.snippet{margin:.25rem 0 0;color:var(--fg)}
@media (max-width:36rem){body{padding:0 .6rem 1.5rem}header.site form{margin-left:0;width:100%}header.site input[type=search]{flex:1;width:auto}.score{min-width:2rem}h1{font-size:1.35rem}}`;
