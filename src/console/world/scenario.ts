// Scenarios: YAML files that seed a world through the services' public APIs, as the agents
// and people in it would have made it (registering, sending mail, posting), so what a seeded
// world holds is what the services themselves wrote. The keys the scenario creates are
// returned for the evaluator (`hamlet world seed … --keys-out keys.json`).
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import type { Keys } from '../../platform/keys.js';
import { ScenarioError } from './scenario-error.js';
import { checkScenarioShape } from './scenario-shape.js';
import { checkPeople, type PersonSpec } from './people-rules.js';

/** How the runner reaches a service's HTTP API (the console's ServiceClient fits). */
export interface ServiceCalls {
  request<T = any>(
    service: string,
    path: string,
    init?: { method?: string; body?: unknown; auth?: string },
  ): Promise<{ status: number; body: T }>;
}

export interface ScenarioAgent {
  name: string;
  /** An inbox <name>@<mail domain> and a mail key (also made when the agent has a blog, to verify it). */
  mail?: boolean;
  /** A blog, registered and verified through the agent's inbox like a real agent would. */
  blog?: { slug?: string; bio?: string };
  /** A community account (its own registration). */
  community?: { description?: string };
  /** Keys of the admin-keyed services the agent may use (home, workflow). */
  keys?: string[];
}

export interface Scenario {
  name?: string;
  agents?: ScenarioAgent[];
  /** Mail between agents (names) or from outside (a full address, delivered over SMTP). */
  mail?: Array<{
    from: string;
    to: string | string[];
    subject: string;
    text: string;
    reply?: Array<{ from: string; text: string }>;
  }>;
  blog?: Array<{
    author: string;
    title: string;
    content: string;
    comments?: Array<{ author: string; content: string }>;
    votes?: Record<string, 1 | -1>;
  }>;
  communities?: Array<{
    name: string;
    /** Who creates it; without an owner the posts go to a community that exists already. */
    owner?: string;
    display_name?: string;
    description?: string;
    posts?: Array<{
      author: string;
      title: string;
      content?: string;
      upvotes?: string[];
      comments?: Array<{ author: string; content: string }>;
    }>;
  }>;
  home?: { states?: Array<{ entity_id: string; state: string; attributes?: Record<string, unknown> }> };
  /** Simulated people: rules for agents of the scenario (console/world/people-rules.ts). */
  people?: PersonSpec[];
  workflows?: Array<{
    file?: string;
    definition?: Record<string, unknown>;
    active?: boolean;
    run?: number;
    /** Runs a workflow an earlier step created, by name, instead of creating one. */ name?: string;
  }>;
}

/** What the scenario made that an agent needs: per agent, per service, its key and handle. */
export interface SeedKeys {
  scenario?: string;
  agents: Record<string, Record<string, { key: string; [handle: string]: string }>>;
}

export { ScenarioError } from './scenario-error.js';

/** Reads a scenario file; its workflow files are read from its folder (and nowhere else). */
export function readScenario(file: string): { scenario: Scenario; baseDir: string } {
  return { scenario: parseScenario(readFileSync(file, 'utf8')), baseDir: path.dirname(path.resolve(file)) };
}

/**
 * Where a scenario's workflow files may be read from: a folder (the scenario's own, from the
 * command line; HAMLET_SCENARIO_DIR for the admin API), named for messages; without a folder,
 * inline definitions only.
 */
export interface ScenarioFiles {
  folder?: string;
  /** How messages name the folder (or the setting that would give one). */
  setting?: string;
}

/** Largest workflow file read (the workflow API's own body limit). */
const MAX_WORKFLOW_FILE = 16 * 1024 * 1024;

/**
 * The scenario with every workflow `file` read into its `definition`, before anything is
 * seeded. A file must lie inside the folder, symbolic links resolved (`..`, absolute paths
 * and links leading out are refused without looking at the target), be a regular file and
 * hold JSON; what is wrong is a ScenarioError naming the file, never quoting it.
 */
export function loadWorkflowFiles(s: Scenario, files: ScenarioFiles): Scenario {
  if (!s.workflows?.some((w) => w?.file !== undefined)) return s;
  const workflows = s.workflows.map((w, i) => {
    if (w?.file === undefined) return w;
    const where = `workflows[${i}].file ${JSON.stringify(String(w.file).slice(0, 300))}`;
    if (typeof w.file !== 'string' || !w.file) throw new ScenarioError(`${where}: a file name`);
    if (!files.folder)
      throw new ScenarioError(
        `${where}: files are not read here, only inline definitions (a workflow's \`definition\`); set ${files.setting ?? 'a scenario folder'} to read files from a folder`,
      );
    const named = files.setting ?? "the scenario's folder";
    const inside = (root: string, target: string) => {
      const rel = path.relative(root, target);
      return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
    };
    let root: string;
    try {
      root = realpathSync(files.folder);
    } catch {
      throw new ScenarioError(`${where}: the folder ${named} names does not exist`);
    }
    const target = path.resolve(root, w.file);
    if (!inside(root, target))
      throw new ScenarioError(`${where}: outside ${named}; workflow files are read from inside it only`);
    let real: string;
    try {
      real = realpathSync(target);
    } catch {
      throw new ScenarioError(`${where}: no such file in ${named}`);
    }
    if (!inside(root, real))
      throw new ScenarioError(
        `${where}: a link that leads outside ${named}; workflow files are read from inside it only`,
      );
    const stat = statSync(real);
    if (!stat.isFile()) throw new ScenarioError(`${where}: not a file`);
    if (stat.size > MAX_WORKFLOW_FILE) throw new ScenarioError(`${where}: larger than ${MAX_WORKFLOW_FILE} bytes`);
    let definition: unknown;
    try {
      definition = JSON.parse(readFileSync(real, 'utf8'));
    } catch {
      // Not the parser's message: it quotes the file's first characters.
      throw new ScenarioError(`${where}: not an n8n workflow (the file is not JSON)`);
    }
    if (!definition || typeof definition !== 'object' || Array.isArray(definition))
      throw new ScenarioError(`${where}: not an n8n workflow (a JSON object with nodes and connections)`);
    const { file: _file, ...rest } = w;
    return { ...rest, definition: definition as Record<string, unknown> };
  });
  return { ...s, workflows };
}

export function parseScenario(text: string): Scenario {
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new ScenarioError(`the scenario is not YAML: ${(err as Error).message}`);
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc))
    throw new ScenarioError('a scenario is a YAML mapping (agents, mail, blog, communities, home, workflows)');
  checkScenarioShape(doc);
  const s = doc as Scenario;
  const names = new Set<string>();
  for (const a of s.agents ?? []) {
    if (typeof a?.name !== 'string' || !/^[a-z][a-z0-9_-]{1,29}$/.test(a.name))
      throw new ScenarioError(
        `agent name ${JSON.stringify(a?.name)}: 2-30 lowercase letters, digits, - or _, starting with a letter`,
      );
    if (names.has(a.name)) throw new ScenarioError(`agent ${a.name} appears twice`);
    names.add(a.name);
  }
  checkPeople(s.people, names);
  const known = (who: string, where: string) => {
    if (!names.has(who)) throw new ScenarioError(`${where}: no agent named ${JSON.stringify(who)}`);
  };
  for (const m of s.mail ?? []) {
    if (!m.from.includes('@')) known(m.from, 'mail from');
    for (const to of ([] as string[]).concat(m.to)) if (!to.includes('@')) known(to, 'mail to');
    for (const r of m.reply ?? []) known(r.from, 'mail reply');
  }
  for (const p of s.blog ?? []) known(p.author, 'blog post author');
  for (const c of s.communities ?? []) {
    if (c.owner !== undefined) known(c.owner, `community ${c.name} owner`);
    for (const p of c.posts ?? []) known(p.author, `community ${c.name} post author`);
  }
  return s;
}

const SERVICE_OF_KEY = new Set(['home', 'workflow', 'mail']);

export class ScenarioRunner {
  private readonly keys: SeedKeys = { agents: {} };
  private readonly inboxOf = new Map<string, string>();
  /** service → the runner's own key and its id (revoked when the seed is done). */
  private readonly seedKeys = new Map<string, { key: string; id: string }>();

  constructor(
    private readonly http: ServiceCalls,
    private readonly platformKeys: Keys,
    /** Sends a message from an outside address over SMTP (the mail service's inbound port). */
    private readonly sendFromOutside: (from: string, to: string[], subject: string, text: string) => Promise<void>,
    private readonly settle: () => Promise<void>,
    /** Called before every request (the demo moves its clock here). */
    private readonly beforeStep: () => void = () => {},
  ) {}

  /** Seeds one scenario and revokes the runner's own keys. */
  async run(s: Scenario): Promise<SeedKeys> {
    try {
      await this.apply(s);
    } finally {
      await this.finish();
    }
    return this.keys;
  }

  /**
   * Seeds a scenario; several may follow one another (agents made earlier stay known). Its
   * workflow files must have been read already (loadWorkflowFiles): the runner reads no file.
   */
  async apply(s: Scenario): Promise<void> {
    if (s.name) this.keys.scenario = s.name;
    for (const a of s.agents ?? []) await this.agent(a);
    for (const m of s.mail ?? []) await this.mail(m);
    for (const p of s.blog ?? []) await this.blogPost(p);
    for (const c of s.communities ?? []) await this.community(c);
    for (const st of s.home?.states ?? [])
      await this.call(
        'home',
        'POST',
        `/api/states/${st.entity_id}`,
        { state: st.state, attributes: st.attributes ?? {} },
        this.seedKey('home'),
      );
    for (const w of s.workflows ?? []) await this.workflow(w);
    await this.settle();
  }

  /** The runner's own keys open nothing once the seed is done. */
  async finish(): Promise<SeedKeys> {
    for (const [service, { id }] of this.seedKeys) await this.platformKeys.revoke({ service, id });
    this.seedKeys.clear();
    return this.keys;
  }

  /** Keys the runner itself uses for admin-keyed services, named as the console's own (not world state). */
  private seedKey(service: string): string {
    const own = this.seedKeys.get(service);
    if (!own) throw new ScenarioError(`the ${service} service is not running here`);
    return own.key;
  }

  async prepare(services: string[]): Promise<void> {
    for (const service of services.filter((s) => SERVICE_OF_KEY.has(s))) {
      const { key, record } = await this.platformKeys.create(service, { name: 'hamlet-console', ownerId: MAIL_ORG });
      this.seedKeys.set(service, { key, id: record.id });
    }
  }

  private async call<T = any>(service: string, method: string, url: string, body: unknown, auth?: string): Promise<T> {
    this.beforeStep();
    const res = await this.http.request<T>(service, url, { method, body, auth });
    if (res.status >= 300)
      throw new ScenarioError(
        `${service} ${method} ${url} answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`,
      );
    // What a step queued (mail deliveries, the blog's key mail) is done before the next step:
    // one thing at a time, so the same scenario makes the same world. GETs too: the blog's
    // verification link is a GET that queues its key mail, and a delivery left running raced
    // the next step for the seeded randomness (the SMTP server draws a session id when it
    // accepts the connection), so two generations of one demo seed differed.
    await this.settle();
    return res.body;
  }

  private remember(agent: string, service: string, entry: { key: string; [handle: string]: string }) {
    (this.keys.agents[agent] ??= {})[service] = entry;
  }

  private async agent(a: ScenarioAgent): Promise<void> {
    if (a.mail || a.blog) {
      const inbox = await this.call<{ inbox_id: string }>(
        'mail',
        'POST',
        '/v0/inboxes',
        { username: a.name, display_name: a.name },
        this.seedKey('mail'),
      );
      this.inboxOf.set(a.name, inbox.inbox_id);
      this.remember(a.name, 'mail', {
        key: (await this.platformKeys.create('mail', { name: a.name, ownerId: MAIL_ORG })).key,
        inbox: inbox.inbox_id,
      });
    }
    if (a.blog) {
      const slug = a.blog.slug ?? a.name;
      await this.call('blog', 'POST', '/api/register', {
        email: this.inboxOf.get(a.name),
        name: a.name,
        slug,
        ...(a.blog.bio ? { bio: a.blog.bio } : {}),
      });
      const token = await this.verificationToken(a.name);
      const verified = await this.call<{ apiKey: string }>('blog', 'GET', `/api/verify?token=${token}`, undefined);
      this.remember(a.name, 'blog', { key: verified.apiKey, slug });
    }
    if (a.community) {
      const r = await this.call<{ agent: { api_key: string; name: string } }>(
        'community',
        'POST',
        '/api/v1/agents/register',
        { name: a.name, description: a.community.description ?? `I am ${a.name}` },
      );
      this.remember(a.name, 'community', { key: r.agent.api_key, name: r.agent.name });
    }
    for (const service of a.keys ?? []) {
      if (!SERVICE_OF_KEY.has(service))
        throw new ScenarioError(`agent ${a.name}: keys are issued for home, workflow or mail, not ${service}`);
      this.remember(a.name, service, { key: (await this.platformKeys.create(service, { name: a.name })).key });
    }
  }

  /** The blog's verification mail, as it arrives in the agent's inbox. */
  private async verificationToken(agent: string): Promise<string> {
    const inbox = this.inboxOf.get(agent)!;
    for (let attempt = 0; attempt < 300; attempt++) {
      await this.settle();
      const list = await this.call<{ messages: Array<{ message_id: string; subject?: string }> }>(
        'mail',
        'GET',
        `/v0/inboxes/${encodeURIComponent(inbox)}/messages`,
        undefined,
        this.seedKey('mail'),
      );
      const hit = list.messages.find((m) => /verify/i.test(m.subject ?? ''));
      if (hit) {
        const message = await this.call<{ text?: string }>(
          'mail',
          'GET',
          `/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(hit.message_id)}`,
          undefined,
          this.seedKey('mail'),
        );
        const token = /[?&]token=([0-9a-f-]{36})/.exec(message.text ?? '')?.[1];
        if (token) return token;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new ScenarioError(`the blog's verification mail for ${agent} did not arrive`);
  }

  private address(who: string): string {
    return who.includes('@') ? who : (this.inboxOf.get(who) ?? `${who} has no inbox (give the agent mail: true)`);
  }

  private async mail(m: NonNullable<Scenario['mail']>[number]): Promise<void> {
    const to = ([] as string[]).concat(m.to).map((t) => this.address(t));
    let messageId: string | undefined;
    if (m.from.includes('@')) await this.sendFromOutside(m.from, to, m.subject, m.text);
    else {
      const sent = await this.call<{ message_id: string }>(
        'mail',
        'POST',
        `/v0/inboxes/${encodeURIComponent(this.address(m.from))}/messages/send`,
        { to, subject: m.subject, text: m.text },
        this.seedKey('mail'),
      );
      messageId = sent.message_id;
    }
    await this.settle();
    for (const r of m.reply ?? []) {
      // A reply answers the last message of the thread the replier holds.
      const inbox = this.address(r.from);
      const list = await this.call<{ messages: Array<{ message_id: string; subject?: string }> }>(
        'mail',
        'GET',
        `/v0/inboxes/${encodeURIComponent(inbox)}/messages`,
        undefined,
        this.seedKey('mail'),
      );
      const target =
        list.messages.find((x) => (x.subject ?? '').replace(/^(re:\s*)+/i, '') === m.subject.replace(/^(re:\s*)+/i, ''))
          ?.message_id ?? messageId;
      if (!target) throw new ScenarioError(`mail "${m.subject}": ${r.from} has no message to reply to`);
      await this.call(
        'mail',
        'POST',
        `/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(target)}/reply`,
        { text: r.text },
        this.seedKey('mail'),
      );
      await this.settle();
    }
  }

  private agentKey(agent: string, service: string): string {
    const key = this.keys.agents[agent]?.[service]?.key;
    if (!key) throw new ScenarioError(`${agent} has no ${service} account (declare it on the agent)`);
    return key;
  }

  private async blogPost(p: NonNullable<Scenario['blog']>[number]): Promise<void> {
    const r = await this.call<{ post: { id: string } }>(
      'blog',
      'POST',
      '/api/publish',
      { title: p.title, content: p.content, status: 'published' },
      this.agentKey(p.author, 'blog'),
    );
    for (const c of p.comments ?? [])
      await this.call(
        'blog',
        'POST',
        `/api/posts/${r.post.id}/comments`,
        { content: c.content },
        this.agentKey(c.author, 'blog'),
      );
    for (const [voter, vote] of Object.entries(p.votes ?? {}))
      await this.call('blog', 'POST', `/api/posts/${r.post.id}/vote`, { vote }, this.agentKey(voter, 'blog'));
  }

  private async community(c: NonNullable<Scenario['communities']>[number]): Promise<void> {
    if (c.owner)
      await this.call(
        'community',
        'POST',
        '/api/v1/communities',
        { name: c.name, display_name: c.display_name ?? c.name, description: c.description ?? '' },
        this.agentKey(c.owner, 'community'),
      );
    for (const p of c.posts ?? []) {
      const r = await this.call<{ post: { id: string } }>(
        'community',
        'POST',
        '/api/v1/posts',
        { community: c.name, title: p.title, content: p.content ?? null },
        this.agentKey(p.author, 'community'),
      );
      for (const cm of p.comments ?? [])
        await this.call(
          'community',
          'POST',
          `/api/v1/posts/${r.post.id}/comments`,
          { content: cm.content },
          this.agentKey(cm.author, 'community'),
        );
      for (const voter of p.upvotes ?? [])
        await this.call(
          'community',
          'POST',
          `/api/v1/posts/${r.post.id}/upvote`,
          undefined,
          this.agentKey(voter, 'community'),
        );
    }
  }

  private readonly workflowIds = new Map<string, string>();

  private async workflow(w: NonNullable<Scenario['workflows']>[number]): Promise<void> {
    if (w.file !== undefined) throw new ScenarioError('workflow files are read before seeding (loadWorkflowFiles)');
    const existing = w.name && !w.definition ? this.workflowIds.get(w.name) : undefined;
    if (w.name && !w.definition && !existing) throw new ScenarioError(`no workflow named ${w.name} was created before`);
    if (existing) return this.execute(existing, w.run ?? 1);
    const definition = w.definition;
    if (!definition) throw new ScenarioError('a workflow needs a file or a definition');
    const { name, nodes, connections, settings } = definition;
    const created = await this.call<{ id: string }>(
      'workflow',
      'POST',
      '/api/v1/workflows',
      { name, nodes, connections, settings: settings ?? {} },
      this.seedKey('workflow'),
    );
    this.workflowIds.set(String(name), created.id);
    if (w.active)
      await this.call(
        'workflow',
        'POST',
        `/api/v1/workflows/${created.id}/activate`,
        undefined,
        this.seedKey('workflow'),
      );
    await this.execute(created.id, w.run ?? 0);
  }

  private async execute(id: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) {
      await this.call('workflow', 'POST', `/api/v1/workflows/${id}/execute`, {}, this.seedKey('workflow'));
      await this.settle();
    }
  }
}

/**
 * The mail organization of a seeded world: a mail key's owner is its organization, so the
 * runner and every agent see the same inboxes (one AgentMail account shared by the agents).
 */
export const MAIL_ORG = 'hamlet-world';
