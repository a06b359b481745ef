// The frame every console page shares (the console's own and the services'): navigation, the
// CSRF token for htmx and forms, the stylesheet (light and dark), and htmx for partial updates.
// Pages are rendered on the server; strings put into HTML go through escapeHtml (or `html`
// below), never raw.
import { escapeHtml } from './html.js';
import type { NavEntry } from './console-pages.js';

export interface PageOptions {
  title: string;
  body: string;
  /** The session's CSRF token; htmx sends it with every request it makes. */
  csrf?: string;
  /** The current path, to mark the navigation entry. */
  path?: string;
  /** The navigation bar (the request's consoleNav); none on the login page. */
  nav?: NavEntry[] | false;
  /** Extra scripts under /static (e.g. a page's own behaviour). */
  scripts?: string[];
}

export function layout(p: PageOptions): string {
  const nav = !p.nav
    ? ''
    : `<header><nav aria-label="Services"><a class="brand" href="/">Hamlet</a><ul>${p.nav
        .map(
          (n) =>
            `<li><a href="${n.href}"${isCurrent(p.path, n.href) ? ' aria-current="page"' : ''}>${n.label}</a></li>`,
        )
        .join('')}</ul>
<form method="post" action="/logout" class="logout"><input type="hidden" name="_csrf" value="${escapeHtml(p.csrf ?? '')}"><button type="submit">Log out</button></form></nav></header>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(p.title)} · Hamlet console</title>
<link rel="stylesheet" href="/static/console.css">
${p.csrf ? `<meta name="csrf-token" content="${escapeHtml(p.csrf)}">` : ''}
<script src="/static/htmx.min.js" defer></script>
<script src="/static/console.js" defer></script>
${(p.scripts ?? []).map((s) => `<script src="/static/${escapeHtml(s)}" defer></script>`).join('\n')}
</head><body${p.csrf ? ` hx-headers='{"x-csrf-token":"${escapeHtml(p.csrf)}"}'` : ''}>
<a class="skip" href="#main">Skip to content</a>
${nav}
<div id="main" tabindex="-1">${p.body}</div>
</body></html>`;
}

function isCurrent(path: string | undefined, href: string): boolean {
  if (!path) return false;
  return href === '/' ? path === '/' : path === href || path.startsWith(href + '/');
}

/** A tagged template that escapes every interpolated value (arrays are joined; `raw()` passes through). */
export function html(strings: TemplateStringsArray, ...values: unknown[]): string {
  let out = strings[0];
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1];
  });
  return out;
}

const RAW = Symbol('raw html');
interface Raw {
  [RAW]: string;
}
/** Marks already-safe HTML (another `html` result, a sanitized fragment). */
export const raw = (text: string): Raw => ({ [RAW]: text });

function render(v: unknown): string {
  if (v === null || v === undefined || v === false) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  if (typeof v === 'object' && RAW in v) return (v as Raw)[RAW];
  return escapeHtml(String(v));
}

/** A piece of markup: `html` escapes every value put into it, and pieces nest without being escaped again. */
export type Fragment = ReturnType<typeof raw>;
export const h = (strings: TemplateStringsArray, ...values: unknown[]): Fragment => raw(html(strings, ...values));
/** The markup of a fragment, as a string for the layout. */
export const markup = (f: Fragment): string => html`${f}`;

/** A time as the pages show it (minutes, UTC), with the full ISO time on hover. */
export function when(iso: string): Fragment {
  return h`<time datetime="${iso}" title="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>`;
}
