// Hamlet Community Trigger: starts a run for each new community post (platform event
// `community.post.created`), optionally only in one community.
import { COMMUNITY_POST_CREATED } from '../../../platform/topics.js';
import type { NodeType } from '../engine/node-type.js';

export default {
  types: ['hamlet.communityTrigger'],
  trigger: 'event',
  topic: COMMUNITY_POST_CREATED,
  fromEvent(payload, node) {
    const post = (payload ?? {}) as Record<string, unknown>;
    const want = String((node.parameters as { community?: string } | undefined)?.community ?? '')
      .trim()
      .toLowerCase();
    if (want) {
      const sub = (post.community ?? post.submolt) as { name?: string } | string | undefined;
      const name = typeof sub === 'string' ? sub : sub?.name;
      if (String(name ?? '').toLowerCase() !== want) return [];
    }
    return [{ json: post }];
  },
  execute: (ctx) => [ctx.items],
} satisfies NodeType;
