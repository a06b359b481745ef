// Webhooks take any content type. Bodies are parsed strictly by their declared type (the
// lesson of CVE-2026-21858): JSON as JSON, form-urlencoded as flat keys ("auth[domain]"),
// text as a string, anything else as raw bytes. Nothing is ever read from disk.
import type { App } from '../../../platform/http.js';

export function addBodyParsers(app: App): void {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body as string)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    done(null, out);
  });
  app.addContentTypeParser(/^text\//, { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, (body as Buffer).length ? body : undefined));
}
