// How agents talk to a home in words: POST /api/conversation/process (HA's default agent in
// English) and POST /api/intent/handle (an intent by name with its slots).
import { Type } from '@sinclair/typebox';
import { HttpError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { processConversation } from '../conversation/agent.js';
import { handleIntent } from '../conversation/intents.js';
import { bodyCheckedByHandler, INVALID_JSON, isObject } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';

const Speech = Type.Object({ plain: Type.Object({ speech: Type.String(), extra_data: Type.Null() }) });
const IntentAnswer = Type.Object(
  {
    speech: Speech,
    card: Type.Object({}),
    language: Type.String(),
    response_type: Type.Union([Type.Literal('action_done'), Type.Literal('query_answer'), Type.Literal('error')]),
    data: Type.Object(
      {},
      {
        additionalProperties: true,
        description: '{targets, success, failed} lists of {type, name, id}; for an error, {code}',
      },
    ),
  },
  { description: "HA's intent response" },
);
const ConversationAnswer = Type.Object({
  response: IntentAnswer,
  conversation_id: Type.String(),
  continue_conversation: Type.Boolean(),
});

const ConversationBody = Type.Object(
  {
    text: Type.String({ description: 'What the user said, e.g. "turn on the lights in the kitchen"' }),
    language: Type.Optional(Type.String({ description: 'Only English (en) is understood' })),
    conversation_id: Type.Optional(Type.String()),
    agent_id: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);
const IntentBody = Type.Object({
  name: Type.String({ description: 'An intent such as HassTurnOn' }),
  data: Type.Optional(
    Type.Object({}, { additionalProperties: true, description: 'Slots: name, area, floor, domain, brightness, ...' }),
  ),
});

const bad = (message: string) => new HttpError(400, message);

function jsonBody(body: unknown): Record<string, unknown> {
  if (body === INVALID_JSON || !isObject(body)) throw bad('Message format incorrect: expected a JSON object');
  return body;
}

export function registerConversationRoutes(app: App, { home, persist }: HttpDeps): void {
  app.post(
    '/api/conversation/process',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Say something to the home (intent matching in English)',
        body: ConversationBody,
        response: { 200: ConversationAnswer, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const body = jsonBody(request.body);
      if (typeof body.text !== 'string')
        throw bad("Message format incorrect: required key not provided @ data['text']");
      for (const key of ['language', 'conversation_id', 'agent_id'] as const) {
        if (body[key] !== undefined && body[key] !== null && typeof body[key] !== 'string')
          throw bad(`Message format incorrect: expected str for dictionary value @ data['${key}']`);
      }
      const result = await processConversation(
        home,
        {
          text: body.text,
          language: body.language as string | undefined,
          conversation_id: body.conversation_id as string | undefined,
        },
        home.context(request.homeUserId),
      );
      await persist.commit();
      return result;
    },
  );

  app.post(
    '/api/intent/handle',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Handle an intent by name with its slots',
        body: IntentBody,
        response: { 200: IntentAnswer, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const body = jsonBody(request.body);
      if (typeof body.name !== 'string')
        throw bad("Message format incorrect: required key not provided @ data['name']");
      if (body.data !== undefined && !isObject(body.data))
        throw bad("Message format incorrect: expected dict for dictionary value @ data['data']");
      const result = await handleIntent(home, body.name, body.data ?? {}, home.context(request.homeUserId));
      await persist.commit();
      return result;
    },
  );
}
