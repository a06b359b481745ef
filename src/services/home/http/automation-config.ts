// HA's automation config API: /api/config/automation/config/<id> (read, create or replace, delete).
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';
import { AutomationConfig, ResultOk } from './schemas.js';

const IdParams = Type.Object({ id: Type.String() });
const bad = (message: string) => new HttpError(400, message);
const notFound = () => new HttpError(404, 'Resource not found');

export function registerAutomationConfigRoutes(app: App, { automations }: HttpDeps): void {
  app.get(
    '/api/config/automation/config/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'An automation config',
        params: IdParams,
        response: { 200: AutomationConfig, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const c = automations.getConfig(request.params.id);
      if (!c) throw notFound();
      return c as { id: string };
    },
  );

  app.post(
    '/api/config/automation/config/:id',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Create or replace an automation',
        params: IdParams,
        body: Type.Omit(AutomationConfig, ['id']),
        response: { 200: ResultOk, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const body: unknown = request.body;
      if (body === INVALID_JSON) throw bad('Invalid JSON specified.');
      if (!isObject(body)) throw bad('Message malformed: expected a dictionary');
      const problem = await automations.save(request.params.id, body);
      if (problem) throw bad(`Message malformed: ${problem}`);
      return { result: 'ok' as const };
    },
  );

  app.delete(
    '/api/config/automation/config/:id',
    {
      schema: {
        tags: TAGS,
        summary: 'Delete an automation',
        params: IdParams,
        response: { 200: ResultOk, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      if (!(await automations.remove(request.params.id))) throw notFound();
      return { result: 'ok' as const };
    },
  );
}
