// A service's root URL says what is there: a person who opens a printed URL in a browser gets
// a small page (what this service is, what it copies, where its docs and OpenAPI document are)
// instead of a JSON 404; a program asking for JSON gets the same facts as JSON.
import type { FastifyInstance } from 'fastify';
import { escapeHtml } from './html.js';

export interface ServiceIndex {
  /** e.g. "Hamlet mail". */
  title: string;
  /** One sentence: what the service is and which real service's API it speaks. */
  summary: string;
  /** The doc in the repository that describes it, e.g. "docs/mail.md". */
  docs: string;
  /** Paths worth a link besides /docs/json, e.g. { "API root": "/api/" }. */
  links?: Record<string, string>;
}

export function registerServiceIndex(app: FastifyInstance, index: ServiceIndex): void {
  const links: Record<string, string> = { 'OpenAPI document': '/docs/json', health: '/healthz', ...index.links };
  const json = { service: index.title, summary: index.summary, docs: index.docs, links };
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(index.title)}</title><style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}code{background:#8882;padding:0 .2em}</style></head>
<body><h1>${escapeHtml(index.title)}</h1><p>${escapeHtml(index.summary)}</p>
<ul>${Object.entries(links)
    .map(([label, href]) => `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a></li>`)
    .join('')}</ul>
<p>How to use it: <code>${escapeHtml(index.docs)}</code> in the Hamlet repository.</p></body></html>`;
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const wantsHtml = /text\/html/.test(request.headers.accept ?? '');
    return wantsHtml ? reply.type('text/html; charset=utf-8').send(html) : reply.send(json);
  });
}
