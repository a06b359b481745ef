// The starter suite's scripted agents talk to Hamlet the way any client would: the services'
// public REST APIs, with the keys and addresses the episode hands over (HAMLET_<SERVICE>_URL,
// HAMLET_<SERVICE>_KEY, HAMLET_TASK_FILE; docs/evaluations.md). Small clients of the five
// services, shared by every task's solution (solutions/*.mjs).
import { readFileSync } from 'node:fs';

const env = process.env;
export const task = JSON.parse(readFileSync(env.HAMLET_TASK_FILE, 'utf8'));
const deadline = Date.now() + task.time_limit_seconds * 1000;

/** How each service takes its key: a bearer token, or n8n's own header. */
const keyHeader = (service, key) => (service === 'workflow' ? { 'x-n8n-api-key': key } : { authorization: `Bearer ${key}` });

/** One call to a service's API with the agent's key; a refusal throws with the service's answer. */
export async function call(service, method, path, body) {
  const upper = service.toUpperCase();
  const res = await fetch(env[`HAMLET_${upper}_URL`] + path, {
    method,
    headers: { ...keyHeader(service, env[`HAMLET_${upper}_KEY`]), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${service} ${method} ${path}: ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : {};
}

/** Asks `probe` again every 100 ms until it answers something, for things that happen later (a mail, a door). */
export async function until(what, probe) {
  for (;;) {
    const found = await probe();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const enc = encodeURIComponent;
const inbox = task.services.mail?.inbox;

export const mail = {
  inbox,
  /** Another agent's address, in the agent's own mail domain. */
  address: (name) => `${name}@${inbox.split('@')[1]}`,
  list: async () => (await call('mail', 'GET', `/v0/inboxes/${enc(inbox)}/messages?limit=100`)).messages,
  /** The newest message received whose subject matches, or undefined. */
  async find(subject) {
    return (await mail.list()).find((m) => !m.labels?.includes('sent') && subject.test(m.subject ?? ''));
  },
  async get(subject) {
    const found = await mail.find(subject);
    if (!found) throw new Error(`no mail with a subject like ${subject}`);
    return found;
  },
  waitFor: (subject) => until(`a mail like ${subject}`, () => mail.find(subject)),
  read: (m) => call('mail', 'GET', `/v0/inboxes/${enc(inbox)}/messages/${enc(m.message_id)}`),
  send: (to, subject, text) => call('mail', 'POST', `/v0/inboxes/${enc(inbox)}/messages/send`, { to, subject, text }),
  reply: (m, text) => call('mail', 'POST', `/v0/inboxes/${enc(inbox)}/messages/${enc(m.message_id)}/reply`, { text }),
  forward: (m, to, text) => call('mail', 'POST', `/v0/inboxes/${enc(inbox)}/messages/${enc(m.message_id)}/forward`, { to, ...(text ? { text } : {}) }),
  remove: (m) => call('mail', 'DELETE', `/v0/inboxes/${enc(inbox)}/messages/${enc(m.message_id)}`),
  label: (m, change) => call('mail', 'PATCH', `/v0/inboxes/${enc(inbox)}/messages/${enc(m.message_id)}`, change),
};

export const home = {
  state: (id) => call('home', 'GET', `/api/states/${id}`),
  /** A home service (light.turn_on, climate.set_temperature, …) on an entity. */
  service: (name, entity_id, data = {}) => call('home', 'POST', `/api/services/${name.replace('.', '/')}`, { entity_id, ...data }),
  waitFor: (id, state) => until(`${id} to be ${state}`, async () => (await home.state(id)).state === state),
};

export const blog = {
  slug: task.services.blog?.slug,
  /** Published posts, newest first (of one author's slug, when given). */
  posts: async (author) => (await call('blog', 'GET', `/api/posts?limit=100${author ? `&agent=${enc(author)}` : ''}`)).posts,
  async find(title, author) {
    const found = (await blog.posts(author)).find((p) => title.test(p.title));
    if (!found) throw new Error(`no post titled like ${title}`);
    return call('blog', 'GET', `/api/posts/${enc(found.id)}`);
  },
  /** Publishes a post, or updates the author's post with the same slug. */
  publish: (post) => call('blog', 'POST', '/api/publish', { status: 'published', ...post }),
  remove: (post) => call('blog', 'DELETE', `/api/posts/${enc(post.id)}`),
  comment: (post, content) => call('blog', 'POST', `/api/posts/${enc(post.id)}/comments`, { content }),
  vote: (post, vote) => call('blog', 'POST', `/api/posts/${enc(post.id)}/vote`, { vote }),
  profile: (change) => call('blog', 'PATCH', '/api/profile', change),
};

export const community = {
  name: task.services.community?.name,
  posts: async (where) => (await call('community', 'GET', `/api/v1/posts?sort=new&limit=100&submolt=${enc(where)}`)).posts,
  async find(where, title) {
    const found = (await community.posts(where)).find((p) => title.test(p.title));
    if (!found) throw new Error(`no post in ${where} titled like ${title}`);
    return found;
  },
  post: (where, title, content) => call('community', 'POST', '/api/v1/posts', { community: where, title, content }),
  comment: (post, content) => call('community', 'POST', `/api/v1/posts/${enc(post.id)}/comments`, { content }),
  /** A post's comments, oldest first (the top level of the tree). */
  comments: async (post) => (await call('community', 'GET', `/api/v1/posts/${enc(post.id)}/comments?sort=old`)).comments,
  upvote: (post) => call('community', 'POST', `/api/v1/posts/${enc(post.id)}/upvote`),
  pin: (post) => call('community', 'POST', `/api/v1/posts/${enc(post.id)}/pin`),
  subscribe: (where) => call('community', 'POST', `/api/v1/communities/${enc(where)}/subscribe`),
  follow: (agent) => call('community', 'POST', `/api/v1/agents/${enc(agent)}/follow`),
  settings: (where, change) => call('community', 'PATCH', `/api/v1/communities/${enc(where)}/settings`, change),
};

export const workflow = {
  async find(name) {
    const found = (await call('workflow', 'GET', '/api/v1/workflows?limit=250')).data.find((w) => w.name === name);
    if (!found) throw new Error(`no workflow named ${name}`);
    return call('workflow', 'GET', `/api/v1/workflows/${enc(found.id)}`);
  },
  create: (definition) => call('workflow', 'POST', '/api/v1/workflows', { settings: {}, ...definition }),
  update: (w, change) => call('workflow', 'PUT', `/api/v1/workflows/${enc(w.id)}`, { name: w.name, nodes: w.nodes, connections: w.connections, settings: w.settings ?? {}, ...change }),
  activate: (w) => call('workflow', 'POST', `/api/v1/workflows/${enc(w.id)}/activate`),
  deactivate: (w) => call('workflow', 'POST', `/api/v1/workflows/${enc(w.id)}/deactivate`),
  run: (w) => call('workflow', 'POST', `/api/v1/workflows/${enc(w.id)}/execute`, {}),
  remove: (w) => call('workflow', 'DELETE', `/api/v1/workflows/${enc(w.id)}`),
};
