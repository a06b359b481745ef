// Keys to act as one of the world's agents (`hamlet world keys <agent>`, POST
// /admin/api/world/agents/<agent>/keys): an evaluator who seeded the demo, or restored a
// snapshot someone else made, has no plaintext keys (the world stores digests only), so new
// ones are minted for the accounts the agent already holds. The accounts are found through
// the services' public APIs, as the console finds everything (never their tables); each key
// is minted in the platform key store with the owner the service itself would give it. The
// keys are world state like any agent's key: a restore to an earlier world or a reset revokes
// them (docs/harness.md, "Keys and restores").
import type { Platform } from '../../platform/service.js';
import { ServiceClient } from '../../platform/console-client.js';
import { MAIL_ORG, type SeedKeys } from './scenario.js';

/** What minting answers: per service, the key and the account's handle (the same shape as a scenario's keys). */
export type AgentKeys = SeedKeys['agents'][string];

export class AgentKeysError extends Error {
  constructor(
    message: string,
    /** 404: no such agent; 400: a bad name or service. */
    readonly status: 400 | 404 = 400,
  ) {
    super(message);
  }
}

/** The services an agent may hold an account in, in the order their keys are listed. */
const AGENT_SERVICES = ['mail', 'blog', 'community', 'home', 'workflow'] as const;

/** Name of the keys minted here (blog keys have no agent name of their own: registration names them 'verification'). */
const MINTED = 'hamlet-world-keys';
const MAX_PAGES = 200;

/**
 * Mints a key of every service where the agent has an account (or only of `only`): its inbox
 * (mail, named <agent>@…), its blog (slug or name), its community account (name), and for
 * home and workflow, a live key already named after it (an agent of a scenario with `keys:`).
 * An agent found nowhere is an AgentKeysError (a 404 for the API). `keyName` names the keys
 * (the people engine's are the console's own: instance rows, no world state).
 */
export async function mintAgentKeys(
  platform: Platform,
  agent: string,
  running: string[],
  only?: string[],
  keyName?: string,
): Promise<AgentKeys> {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(agent))
    throw new AgentKeysError(`agent ${JSON.stringify(agent.slice(0, 80))}: a name of letters, digits, _ . or -`);
  const wanted = only ?? [...AGENT_SERVICES];
  const unknown = wanted.filter((s) => !(AGENT_SERVICES as readonly string[]).includes(s));
  if (unknown.length)
    throw new AgentKeysError(`services: ${unknown.join(', ')} is not one of ${AGENT_SERVICES.join(', ')}`);
  const client = new ServiceClient(platform);
  const out: AgentKeys = {};
  try {
    for (const service of wanted) {
      if (!running.includes(service)) continue;
      const found = await FINDERS[service as (typeof AGENT_SERVICES)[number]](platform, client, agent, keyName);
      if (found) out[service] = found;
    }
  } finally {
    await client.release();
  }
  if (!Object.keys(out).length)
    throw new AgentKeysError(
      `no agent named ${agent} in this world (${wanted.filter((s) => running.includes(s)).join(', ') || 'none of the services asked for runs here'})`,
      404,
    );
  return out;
}

type Finder = (
  platform: Platform,
  client: ServiceClient,
  agent: string,
  keyName?: string,
) => Promise<AgentKeys[string] | undefined>;

const FINDERS: Record<(typeof AGENT_SERVICES)[number], Finder> = {
  async mail(platform, client, agent, keyName) {
    // The world's inboxes are one organization's (a seeded world's, MAIL_ORG); the lookup key is the console's and revoked after.
    const auth = await client.mint('mail', { ownerId: MAIL_ORG });
    let token: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.request<{ inboxes: Array<{ inbox_id: string }>; next_page_token?: string }>(
        'mail',
        `/v0/inboxes?limit=100${token ? `&page_token=${encodeURIComponent(token)}` : ''}`,
        { auth },
      );
      if (res.status !== 200) throw new Error(`mail GET /v0/inboxes answered ${res.status}`);
      const inbox = res.body.inboxes.find((i) => i.inbox_id.split('@')[0] === agent.toLowerCase());
      if (inbox)
        return {
          key: (await platform.keys.create('mail', { name: keyName ?? agent, ownerId: MAIL_ORG })).key,
          inbox: inbox.inbox_id,
        };
      token = res.body.next_page_token;
      if (!token) return undefined;
    }
    return undefined;
  },

  async blog(platform, client, agent, keyName) {
    for (let page = 0; page < MAX_PAGES; page++) {
      const res = await client.request<{ blogs: Array<{ id: string; name: string; slug: string }>; total: number }>(
        'blog',
        `/api/blogs?sort=name&limit=100&offset=${page * 100}`,
      );
      if (res.status !== 200) throw new Error(`blog GET /api/blogs answered ${res.status}`);
      const blog = res.body.blogs.find((b) => b.slug === agent || b.name === agent);
      // A blog is its agent (the same id), and the blog's keys are owned by it.
      if (blog)
        return {
          key: (await platform.keys.create('blog', { name: keyName ?? MINTED, ownerId: blog.id })).key,
          slug: blog.slug,
        };
      if ((page + 1) * 100 >= res.body.total) return undefined;
    }
    return undefined;
  },

  async community(platform, client, agent, keyName) {
    // Every community read wants an agent's key: a viewer key of no agent, as the console's own.
    const auth = await client.mint('community', { ownerId: 'hamlet-console' });
    const res = await client.request<{ agent?: { id: string; name: string } }>(
      'community',
      `/api/v1/agents/profile?name=${encodeURIComponent(agent)}`,
      { auth },
    );
    if (res.status === 404) return undefined;
    if (res.status !== 200 || !res.body.agent)
      throw new Error(`community GET /api/v1/agents/profile answered ${res.status}`);
    return {
      key: (
        await platform.keys.create('community', { name: keyName ?? res.body.agent.name, ownerId: res.body.agent.id })
      ).key,
      name: res.body.agent.name,
    };
  },

  home: (platform, _client, agent, keyName) => namedKey(platform, 'home', agent, keyName),
  workflow: (platform, _client, agent, keyName) => namedKey(platform, 'workflow', agent, keyName),
};

/** Admin-keyed services know an agent by the name on its keys (a scenario's `keys: [home]`). */
async function namedKey(
  platform: Platform,
  service: string,
  agent: string,
  keyName?: string,
): Promise<AgentKeys[string] | undefined> {
  const held = (await platform.keys.list(service)).some((k) => k.name === agent && !k.revokedAt);
  return held ? { key: (await platform.keys.create(service, { name: keyName ?? agent })).key } : undefined;
}
