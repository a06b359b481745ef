// n8n's health endpoints beside the platform's /healthz: /healthz/readiness answers
// {"status":"ok"} once the database answers a query, 503 {"status":"error"} while it does not
// (n8n's words), so an orchestrator routes traffic only to an instance that can serve it.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';

const Status = Type.Object({ status: Type.String() });

export function healthRoutes(app: App, d: { ping(): Promise<boolean> }): void {
  app.get(
    '/healthz/readiness',
    {
      schema: { summary: 'Ready when the database answers', tags: ['health'], response: { 200: Status, 503: Status } },
    },
    async (_req, reply) => {
      const ok = await d.ping().catch(() => false);
      return ok ? { status: 'ok' } : reply.code(503).send({ status: 'error' });
    },
  );
}
