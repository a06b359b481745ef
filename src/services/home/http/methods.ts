// Known paths and their methods; any other method on them is 405 (HEAD comes with GET), as HA answers.
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';

const ALLOWED: Record<string, string[]> = {
  '/api/': ['GET'],
  '/api/config': ['GET'],
  '/api/states': ['GET'],
  '/api/states/:entity_id': ['GET', 'POST', 'DELETE'],
  '/api/services': ['GET'],
  '/api/services/:domain/:service': ['POST'],
  '/api/events': ['GET'],
  '/api/events/:event_type': ['POST'],
  '/api/history/period': ['GET'],
  '/api/history/period/:timestamp': ['GET'],
  '/api/logbook': ['GET'],
  '/api/logbook/:timestamp': ['GET'],
  '/api/webhook/:webhook_id': ['GET', 'POST', 'PUT'],
  '/api/config/automation/config/:id': ['GET', 'POST', 'DELETE'],
};

export function refuseOtherMethods(app: App): void {
  for (const [url, methods] of Object.entries(ALLOWED)) {
    const others = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !methods.includes(m));
    app.route({
      method: others,
      url,
      schema: { hide: true },
      handler: async () => {
        throw new HttpError(405, 'Method not allowed');
      },
    });
  }
}
