// Who is calling: the agent behind a Bearer key. Keys belong to verified agents only.
import type { FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import { bearerToken } from '../../../platform/http.js';
import type { Keys } from '../../../platform/keys.js';
import type { AgentStore } from '../store/agents.js';
import type { Caller } from '../store/tables.js';

const UNAUTHORIZED = 'Unauthorized. Provide a valid API key in the Authorization header.';
const MAX_REMEMBERED = 100_000;

declare module 'fastify' {
  interface FastifyRequest {
    /** The calling agent on routes that require a key (set before the body is validated, so a missing key is a 401, not a 400). */
    blogAgent?: Caller;
  }
}

export class BlogAuth {
  /** Verified agents by id: slug and e-mail never change and a name change is announced (forget), so who owns a key is worth remembering. */
  private readonly callers = new Map<string, Caller>();

  constructor(
    private readonly keys: Keys,
    private readonly agents: AgentStore,
  ) {}

  /** The agent behind the request's key, or a 401 (revoked keys are already refused by the platform's keys). */
  async caller(request: FastifyRequest): Promise<Caller> {
    const token = bearerToken(request);
    const key = token ? await this.keys.verify('blog', token) : undefined;
    if (key) request.apiKeyId = key.id;
    let agent = key?.ownerId ? this.callers.get(key.ownerId) : undefined;
    if (!agent && key?.ownerId) {
      const row = await this.agents.byId(key.ownerId);
      if (row?.verified) {
        agent = { id: row.id, email: row.email, name: row.name, slug: row.slug };
        if (this.callers.size > MAX_REMEMBERED) this.callers.clear();
        this.callers.set(row.id, agent);
      }
    }
    if (!agent) {
      throw new HttpError(401, UNAUTHORIZED, token ? 'invalid_api_key' : 'missing_api_key', undefined, {
        'WWW-Authenticate': 'Bearer',
      });
    }
    return agent;
  }

  /** Drops what is remembered of an agent whose profile changed. */
  forget(agentId: string): void {
    this.callers.delete(agentId);
  }

  /** After a world restore: no agent is known until asked again. */
  forgetAll(): void {
    this.callers.clear();
  }

  /** Route options: authenticate in onRequest, before body validation. */
  readonly required = {
    onRequest: async (request: FastifyRequest) => {
      request.blogAgent = await this.caller(request);
    },
  };
}
