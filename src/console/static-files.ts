// The console's static files: its own (static/, copied next to the build by copy-assets) and
// htmx from its npm package. Read once at start; served with a validator so browsers revalidate
// cheaply.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { App } from '../platform/http.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export function registerStaticFiles(app: App): void {
  const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'static');
  const files = new Map<string, { body: Buffer; type: string; etag: string }>();
  const add = (name: string, body: Buffer) =>
    files.set(name, {
      body,
      type: TYPES[path.extname(name)] ?? 'application/octet-stream',
      etag: `"${createHash('sha1').update(body).digest('hex').slice(0, 16)}"`,
    });
  for (const name of readdirSync(dir)) add(name, readFileSync(path.join(dir, name)));
  add('htmx.min.js', readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js')));

  app.get('/static/:name', { schema: { hide: true } }, async (request, reply) => {
    const file = files.get((request.params as { name: string }).name);
    if (!file) return reply.code(404).send({ message: 'No such file', code: 'not_found' });
    reply.header('etag', file.etag).header('cache-control', 'no-cache');
    if (request.headers['if-none-match'] === file.etag) return reply.code(304).send();
    return reply.type(file.type).send(file.body);
  });
}
