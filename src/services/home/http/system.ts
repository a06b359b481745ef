// HA's system routes: loaded components, the error log, the core's run state, and a check of
// the configuration (the house file) without applying it.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import { bodyCheckedByHandler } from './body.js';
import { TAGS, type HttpDeps } from './deps.js';
import { errorResponses } from './envelope.js';

const CoreState = Type.Object(
  {
    state: Type.String({ description: 'NOT_RUNNING, STARTING, RUNNING, STOPPING or FINAL_WRITE' }),
    recorder_state: Type.Object(
      { migration_in_progress: Type.Boolean(), migration_is_live: Type.Boolean() },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);
const CheckResult = Type.Object(
  {
    result: Type.Union([Type.Literal('valid'), Type.Literal('invalid')]),
    errors: Type.Union([Type.String(), Type.Null()]),
    warnings: Type.Union([Type.String(), Type.Null()]),
  },
  { additionalProperties: true },
);

export function registerSystemRoutes(app: App, { home, errorLog, checkConfig }: HttpDeps): void {
  app.get(
    '/api/components',
    {
      schema: {
        tags: TAGS,
        summary: 'The loaded components (integrations and platforms)',
        response: { 200: Type.Array(Type.String()), ...errorResponses(401) },
      },
    },
    async () => [...home.components].sort(),
  );

  app.get(
    '/api/error_log',
    {
      schema: {
        tags: TAGS,
        summary: "The home's recent warnings and errors, as HA's log lines (text/plain)",
        response: { 200: Type.String(), ...errorResponses(401) },
      },
    },
    async (_req, reply) => reply.type('text/plain; charset=utf-8').send(errorLog.text()),
  );

  app.get(
    '/api/core/state',
    { schema: { tags: TAGS, summary: "The core's run state", response: { 200: CoreState, ...errorResponses(401) } } },
    async () => ({
      state: String(home.configObject().state),
      recorder_state: { migration_in_progress: false, migration_is_live: false },
    }),
  );

  app.post(
    '/api/config/core/check_config',
    {
      ...bodyCheckedByHandler(app),
      schema: {
        tags: TAGS,
        summary: 'Check the house file (devices, automations) without applying it',
        body: Type.Object({}, { additionalProperties: true, description: 'Nothing: any body is ignored' }),
        response: { 200: CheckResult, ...errorResponses(401) },
      },
    },
    async () => {
      const problem = checkConfig();
      return { result: problem ? ('invalid' as const) : ('valid' as const), errors: problem, warnings: null };
    },
  );
}
