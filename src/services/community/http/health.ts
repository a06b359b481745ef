// Moltbook's health check, answered without a key.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';

const Health = Type.Object({
  success: Type.Boolean(),
  status: Type.Literal('healthy'),
  timestamp: Type.String({ description: 'ISO 8601' }),
});

export function healthRoutes(app: App, ctx: Ctx) {
  app.get(
    '/api/v1/health',
    { schema: { summary: 'Service health', tags: ['health'], response: { 200: Health } } },
    async () => ({
      success: true,
      status: 'healthy' as const,
      timestamp: ctx.platform.clock.now().toISOString(),
    }),
  );
}
