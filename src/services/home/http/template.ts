// POST /api/template: renders a template and answers the text (HA: text/plain, the result
// not parsed); a template that does not compile or render is a 400 "Error rendering template: …".
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { renderText, TemplateError } from '../templates/index.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';

const TemplateRequest = Type.Object(
  {
    template: Type.String({ description: 'A Home Assistant template, e.g. "{{ states(\'light.kitchen\') }}"' }),
    variables: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'Variables the template can read' }),
    ),
  },
  { additionalProperties: true },
);

const failed = (detail: string) => new HttpError(400, `Error rendering template: ${detail}`);

export function registerTemplateRoutes(app: App, { home }: HttpDeps): void {
  app.post(
    '/api/template',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Render a template (answers the rendered text, text/plain)',
        body: TemplateRequest,
        response: { 200: Type.String({ description: 'The rendered text' }), ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      const body: unknown = request.body;
      // HA's words for a body json.loads refuses.
      if (body === INVALID_JSON || body === undefined) throw failed('Expecting value: line 1 column 1 (char 0)');
      if (!isObject(body)) throw failed('expected a dictionary');
      if (typeof body.template !== 'string')
        throw failed(
          body.template === undefined
            ? "required key not provided @ data['template']"
            : "expected str for dictionary value @ data['template']",
        );
      if (body.variables !== undefined && body.variables !== null && !isObject(body.variables))
        throw failed("expected dict for dictionary value @ data['variables']");
      let text: string;
      try {
        text = renderText(home, body.template, (body.variables as Record<string, unknown>) ?? {});
      } catch (err) {
        if (err instanceof TemplateError) throw failed(err.message);
        throw err;
      }
      return reply.type('text/plain; charset=utf-8').send(text);
    },
  );
}
