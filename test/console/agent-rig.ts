// An agent with keys for all five services and the few things it does in the trace and
// activity tests: receive a mail, publish a post, post in a community, turn on a light, run a
// workflow. Every step goes through the services' public APIs, as an agent's would.
import { startTestHamlet, type TestHamlet } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';

export interface AgentKeys {
  mail: string;
  home: string;
  workflow: string;
  community: string;
  blog: string;
}

export interface AgentRig {
  t: TestHamlet;
  keys: AgentKeys;
  /** The id (platform_keys.id) of each key. */
  keyIds: Record<keyof AgentKeys, string>;
  /** The agent's inbox address. */
  inbox: string;
  call(
    service: keyof AgentKeys,
    method: string,
    path: string,
    body?: unknown,
    key?: string,
  ): Promise<{ status: number; body: any }>;
  /** Sends a mail from a second inbox to the agent's (a mail received). */
  sendMail(subject: string): Promise<void>;
  publishPost(title: string): Promise<void>;
  postInCommunity(title: string): Promise<void>;
  turnOnLight(entityId: string): Promise<void>;
  /** Creates and runs a workflow; resolves with its execution id once it finished. */
  runWorkflow(name: string): Promise<string>;
}

export async function startAgentRig(env: Record<string, string> = {}): Promise<AgentRig> {
  const t = await startTestHamlet({
    services: ['mail', 'home', 'workflow', 'blog', 'community'],
    env: { MAIL_DOMAIN: 'mail.test', HAMLET_RATE_LIMITS: 'off', ...env },
  });
  const { platform } = t.hamlet;
  const partial: Partial<AgentKeys> = {};
  for (const service of ['mail', 'home', 'workflow'] as const)
    partial[service] = (await platform.keys.create(service, { name: 'agent' })).key;

  async function call(service: keyof AgentKeys, method: string, path: string, body?: unknown, key = partial[service]) {
    const headers: Record<string, string> = {};
    if (key) {
      if (service === 'workflow') headers['x-n8n-api-key'] = key;
      else headers.authorization = `Bearer ${key}`;
    }
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res = await fetch(t.url(service) + path, {
      method,
      headers: { accept: 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as any };
  }

  const inbox = (await call('mail', 'POST', '/v0/inboxes', { username: 'agent' })).body.inbox_id as string;
  const sender = (await call('mail', 'POST', '/v0/inboxes', { username: 'friend' })).body.inbox_id as string;

  const registered = await call('community', 'POST', '/api/v1/agents/register', {
    name: 'trace_agent',
    description: 'an agent being traced',
  });
  partial.community = registered.body.agent.api_key as string;

  // The blog mails its verification link to the agent's own Hamlet inbox.
  await call('blog', 'POST', '/api/register', { email: inbox, name: 'Trace Agent', slug: 'trace-agent' });
  const token = await waitFor(
    async () => {
      for (const item of (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages`)).body.messages ?? []) {
        const m = (await call('mail', 'GET', `/v0/inboxes/${inbox}/messages/${encodeURIComponent(item.message_id)}`))
          .body;
        const found = /\/api\/verify\?token=([0-9a-f-]{36})/.exec(`${m.text ?? ''} ${m.html ?? ''}`)?.[1];
        if (found) return found;
      }
      return undefined;
    },
    { intervalMs: 100, message: 'the blog verification mail' },
  );
  partial.blog = (await call('blog', 'GET', `/api/verify?token=${token}`)).body.apiKey as string;

  const keys = partial as AgentKeys;
  const keyIds = {} as Record<keyof AgentKeys, string>;
  for (const service of Object.keys(keys) as Array<keyof AgentKeys>)
    keyIds[service] = (await platform.keys.verify(service, keys[service]))!.id;

  const expectOk = (what: string, r: { status: number; body: unknown }) => {
    if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  };

  return {
    t,
    keys,
    keyIds,
    inbox,
    call,
    async sendMail(subject) {
      expectOk(
        'send mail',
        await call('mail', 'POST', `/v0/inboxes/${sender}/messages/send`, {
          to: [inbox],
          subject,
          text: 'Hello from a friend',
        }),
      );
    },
    async publishPost(title) {
      expectOk(
        'publish',
        await call('blog', 'POST', '/api/publish', {
          title,
          content: `# ${title}\n\nWritten by an agent.`,
          status: 'published',
        }),
      );
    },
    async postInCommunity(title) {
      expectOk(
        'community post',
        await call('community', 'POST', '/api/v1/posts', { title, content: 'from the trace test', submolt: 'general' }),
      );
    },
    async turnOnLight(entityId) {
      expectOk('turn on', await call('home', 'POST', '/api/services/light/turn_on', { entity_id: entityId }));
    },
    async runWorkflow(name) {
      const created = await call('workflow', 'POST', '/api/v1/workflows', {
        name,
        nodes: [
          {
            id: 'a',
            name: 'Manual',
            type: 'n8n-nodes-base.manualTrigger',
            typeVersion: 1,
            position: [0, 0],
            parameters: {},
          },
          {
            id: 'b',
            name: 'Set',
            type: 'n8n-nodes-base.set',
            typeVersion: 3.4,
            position: [200, 0],
            parameters: {
              assignments: { assignments: [{ id: '1', name: 'done', type: 'boolean', value: true }] },
              options: {},
            },
          },
        ],
        connections: { Manual: { main: [[{ node: 'Set', type: 'main', index: 0 }]] } },
        settings: { executionOrder: 'v1' },
      });
      expectOk('create workflow', created);
      const run = await call('workflow', 'POST', `/api/v1/workflows/${created.body.id}/execute`, {});
      expectOk('run workflow', run);
      return String(run.body.id);
    },
  };
}
