// webhook trigger: a request to /api/webhook/<webhook_id> (no auth) with an allowed method.
import { ConfigProblem, need } from '../config-values.js';
import type { TriggerType } from './types.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT'];

export const webhookTrigger: TriggerType = {
  validate(c) {
    const id = need(c, 'webhook_id');
    if (typeof id !== 'string' || !id)
      throw new ConfigProblem("expected str for dictionary value @ data['webhook_id']");
    const methods = c.allowed_methods === undefined ? ['POST', 'PUT'] : c.allowed_methods;
    if (!Array.isArray(methods) || methods.some((m) => typeof m !== 'string' || !METHODS.includes(m.toUpperCase()))) {
      throw new ConfigProblem(`allowed_methods must be a list of ${METHODS.join(', ')} @ data['allowed_methods']`);
    }
    return {
      ...c,
      allowed_methods: [...new Set((methods as string[]).map((m) => m.toUpperCase()))].sort(),
      local_only: c.local_only !== false,
    };
  },
  describe: (c) => `webhook ${String(c.webhook_id)}`,
  attach(c, home, fire) {
    const id = c.webhook_id as string;
    if (home.webhooks.has(id)) throw new ConfigProblem(`Webhook ${id} is already used by another trigger`);
    home.webhooks.set(id, {
      allowedMethods: c.allowed_methods as string[],
      localOnly: c.local_only as boolean,
      handle: (req) =>
        fire({
          platform: 'webhook',
          webhook_id: id,
          json: req.json,
          data: req.data,
          query: req.query,
          headers: req.headers,
          description: `webhook ${id}`,
        }),
    });
    return () => home.webhooks.delete(id);
  },
};
