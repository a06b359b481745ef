// Keys to act as one of the world's agents, for the evaluator (admin key): POST
// /admin/api/world/agents/<agent>/keys[?services=mail,blog] mints a key of every account the
// agent holds (world/agent-keys.ts). The keys are world state: a restore or reset revokes them.
import type { ConsoleModule } from '../context.js';
import { AgentKeysError, mintAgentKeys } from '../world/agent-keys.js';
import { AgentKeysAnswer, AgentKeysQuery, AgentName, ConsoleError } from './world-schemas.js';

export const worldKeysAdmin: ConsoleModule = (app, ctx) => {
  app.post(
    '/admin/api/world/agents/:agent/keys',
    {
      schema: {
        description: "Mints keys to act as one of the world's agents",
        params: AgentName,
        querystring: AgentKeysQuery,
        response: { 200: AgentKeysAnswer, 400: ConsoleError, 404: ConsoleError },
      },
    },
    async (request, reply) => {
      const { agent } = request.params;
      const only = request.query.services
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      try {
        return { agent, keys: await mintAgentKeys(ctx.platform, agent, Object.keys(ctx.running), only) };
      } catch (err) {
        if (!(err instanceof AgentKeysError)) throw err;
        return reply
          .code(err.status)
          .send({ message: err.message, code: err.status === 404 ? 'not_found' : 'validation_error' });
      }
    },
  );
};
