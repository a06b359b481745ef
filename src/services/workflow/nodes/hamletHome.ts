// Hamlet Home: call a home service (light.turn_on, climate.set_temperature, …).
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { callService, perItem } from './hamlet-api.js';

export default {
  types: ['hamlet.home'],
  execute: (ctx) =>
    perItem(ctx, async (i) => {
      const domain = String(await ctx.param('domain', i, '')).trim();
      const service = String(await ctx.param('service', i, '')).trim();
      if (!/^[a-z_]+$/.test(domain) || !/^[a-z0-9_]+$/.test(service))
        throw new NodeOperationError('Domain and service are required, e.g. light and turn_on');
      let data = await ctx.param<unknown>('data', i, {});
      if (typeof data === 'string') {
        try {
          data = data.trim() ? JSON.parse(data) : {};
        } catch {
          throw new NodeOperationError('Service data must be a JSON object');
        }
      }
      const body = { ...(data as Record<string, unknown>) };
      const entity = await ctx.param<string>('entityId', i, '');
      if (entity) body.entity_id = entity;
      const changed = await callService(ctx, {
        service: 'home',
        method: 'POST',
        path: `/api/services/${domain}/${service}`,
        body,
        itemIndex: i,
      });
      return Array.isArray(changed.data) ? { changed: changed.data } : changed;
    }),
} satisfies NodeType;
