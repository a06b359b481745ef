// GET /api/ (is the API up) and GET /api/config (location, units, components, version).
import type { Static } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { Home } from '../core/home.js';
import { TAGS } from './deps.js';
import { errorResponses } from './envelope.js';
import { Config, Message } from './schemas.js';

export function registerStatusRoutes(app: App, home: Home): void {
  app.get(
    '/api/',
    { schema: { tags: TAGS, summary: 'API status', response: { 200: Message, ...errorResponses(401) } } },
    async () => ({ message: 'API running.' }),
  );
  app.get(
    '/api/config',
    {
      schema: {
        tags: TAGS,
        summary: 'The home configuration (location, units, components, version)',
        response: { 200: Config, ...errorResponses(401) },
      },
    },
    async () => home.configObject() as Static<typeof Config>,
  );
}
