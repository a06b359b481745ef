// The communities a fresh server starts with (COMMUNITY_DEFAULT_COMMUNITIES; Moltbook's
// general and a few of its best known by default), so that the README's first post has
// somewhere to go. Run at every start and idempotent: a missing one is created, an existing
// one (seeded before, or created by an agent) is left alone. They belong to a keyless
// system agent, so nobody moderates them until an operator says otherwise.
import type { Logger } from '../../platform/logger.js';
import type { CommunitySettings } from './settings.js';
import type { Stores } from './store/index.js';

export async function seedCommunities(store: Stores, config: CommunitySettings, logger: Logger): Promise<void> {
  if (!config.defaultCommunities.length) return;
  const owner = await store.agents.systemAgent();
  const created = await store.communities.seed(config.defaultCommunities, owner.id);
  if (created.length) logger.info({ service: 'community', communities: created }, 'default communities created');
}
