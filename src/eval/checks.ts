// The checks of a task on an episode's end state, as data (task.schema.json): what the
// services' public reads show (a mail, an entity's state, a post, a workflow), the collateral
// rule on the semantic diff, or a script of the evaluator's (script-check.ts). Each gives
// pass or fail and a sentence saying what it found.
import type { SeedKeys } from '../console/world/scenario.js';
import type { EpisodeChanges, SemanticChange } from './changes.js';
import type { Readers } from './readers.js';
import { runScriptCheck, type ScriptInput } from './script-check.js';
import {
  CHECK_KINDS,
  type Check,
  type ChangeCheck,
  type CheckKind,
  type CollateralCheck,
  type CommunityCheck,
  type HomeCheck,
  type MailCheck,
  type PostCheck,
  type WorkflowCheck,
} from './task.js';

export interface CheckResult {
  name: string;
  kind: CheckKind;
  pass: boolean;
  message: string;
}

export interface CheckContext {
  readers: Readers;
  keys: SeedKeys;
  changes: EpisodeChanges;
  script: ScriptInput;
}

type Outcome = { pass: boolean; message: string };

const has = (text: unknown, part: string | undefined) =>
  part === undefined ||
  String(text ?? '')
    .toLowerCase()
    .includes(part.toLowerCase());
const addresses = (v: unknown): string[] =>
  Array.isArray(v) ? v.map(String) : v === undefined || v === null ? [] : [String(v)];

/** An agent's name as its inbox address; an address as it is. */
function addressOf(keys: SeedKeys, who: string): string {
  return keys.agents[who]?.mail?.inbox ?? who;
}

/** The first key some agent of the world holds for a service (reads of services whose keys only agents have). */
function anyKey(keys: SeedKeys, service: string): string | undefined {
  for (const services of Object.values(keys.agents)) if (services[service]?.key) return services[service].key;
  return undefined;
}

function counted(found: number, want: number | undefined, what: string): Outcome {
  const pass = want === undefined ? found > 0 : found === want;
  return { pass, message: `${found} ${what}${want === undefined ? '' : ` (expected ${want})`}` };
}

async function mailCheck(c: MailCheck, ctx: CheckContext): Promise<Outcome> {
  const to = c.to === undefined ? undefined : addressOf(ctx.keys, c.to);
  const from = c.from === undefined ? undefined : addressOf(ctx.keys, c.from);
  const inboxes = await ctx.readers.call<{ inboxes: Array<{ inbox_id: string }> }>('mail', '/v0/inboxes?limit=100');
  if (inboxes.status !== 200)
    return { pass: false, message: `the mail service answered ${inboxes.status} to the list of inboxes` };
  const seen = new Set<string>();
  let found = 0;
  for (const { inbox_id } of inboxes.body.inboxes) {
    const list = await ctx.readers.call<{ messages: Array<Record<string, unknown>> }>(
      'mail',
      `/v0/inboxes/${encodeURIComponent(inbox_id)}/messages?limit=100`,
    );
    for (const m of list.body.messages ?? []) {
      const id = String(m.smtp_id ?? m.message_id);
      if (seen.has(id)) continue; // the sender's copy and the recipient's are one message
      if (to !== undefined && !addresses(m.to).some((a) => has(a, to))) continue;
      if (from !== undefined && !has(m.from, from)) continue;
      if (!has(m.subject, c.subject_contains)) continue;
      if (c.text_contains !== undefined) {
        const full = await ctx.readers.call<{ text?: string; extracted_text?: string }>(
          'mail',
          `/v0/inboxes/${encodeURIComponent(inbox_id)}/messages/${encodeURIComponent(String(m.message_id))}`,
        );
        if (!has(full.body.text ?? full.body.extracted_text, c.text_contains)) continue;
      }
      seen.add(id);
      found++;
    }
  }
  const what = [
    to && `to ${to}`,
    from && `from ${from}`,
    c.subject_contains && `subject containing "${c.subject_contains}"`,
    c.text_contains && `text containing "${c.text_contains}"`,
  ]
    .filter(Boolean)
    .join(', ');
  return counted(found, c.count, `message(s) ${what}`);
}

async function homeCheck(c: HomeCheck, ctx: CheckContext): Promise<Outcome> {
  const res = await ctx.readers.call<{ state: string; attributes: Record<string, unknown> }>(
    'home',
    `/api/states/${encodeURIComponent(c.entity_id)}`,
  );
  if (res.status === 404) return { pass: false, message: `${c.entity_id} does not exist` };
  if (res.status !== 200) return { pass: false, message: `the home answered ${res.status} for ${c.entity_id}` };
  const wrong: string[] = [];
  if (c.state !== undefined && res.body.state !== c.state)
    wrong.push(`state is ${JSON.stringify(res.body.state)}, expected ${JSON.stringify(c.state)}`);
  for (const [name, want] of Object.entries(c.attributes ?? {})) {
    const got = res.body.attributes?.[name];
    if (JSON.stringify(got) !== JSON.stringify(want))
      wrong.push(`${name} is ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
  }
  return wrong.length
    ? { pass: false, message: `${c.entity_id}: ${wrong.join('; ')}` }
    : { pass: true, message: `${c.entity_id} is ${res.body.state}` };
}

async function blogCheck(c: PostCheck, ctx: CheckContext): Promise<Outcome> {
  const query = new URLSearchParams({
    limit: '100',
    ...(c.author ? { agent: ctx.keys.agents[c.author]?.blog?.slug ?? c.author } : {}),
  });
  const res = await ctx.readers.call<{ posts: Array<{ id: string; title: string }> }>('blog', `/api/posts?${query}`);
  if (res.status !== 200) return { pass: false, message: `the blog answered ${res.status} to the list of posts` };
  let found = 0;
  for (const p of res.body.posts) {
    if (!has(p.title, c.title_contains)) continue;
    if (c.content_contains !== undefined) {
      const full = await ctx.readers.call<{ content?: string }>('blog', `/api/posts/${encodeURIComponent(p.id)}`);
      if (!has(full.body.content, c.content_contains)) continue;
    }
    found++;
  }
  return counted(
    found,
    c.count,
    `published post(s)${c.author ? ` by ${c.author}` : ''}${c.title_contains ? ` titled with "${c.title_contains}"` : ''}`,
  );
}

async function communityCheck(c: CommunityCheck, ctx: CheckContext): Promise<Outcome> {
  const key = anyKey(ctx.keys, 'community');
  if (!key) return { pass: false, message: 'no agent of the world has a community key to read with' };
  const query = new URLSearchParams({ sort: 'new', limit: '100', ...(c.community ? { submolt: c.community } : {}) });
  const res = await ctx.readers.call<{ posts: Array<{ title: string; content: string; author: { name: string } }> }>(
    'community',
    `/api/v1/posts?${query}`,
    { auth: key },
  );
  if (res.status === 404) return { pass: false, message: `no community ${c.community}` };
  if (res.status !== 200) return { pass: false, message: `the community answered ${res.status} to the list of posts` };
  const author = c.author === undefined ? undefined : (ctx.keys.agents[c.author]?.community?.name ?? c.author);
  const found = res.body.posts.filter(
    (p) =>
      (author === undefined || p.author?.name === author) &&
      has(p.title, c.title_contains) &&
      has(p.content, c.content_contains),
  ).length;
  return counted(found, c.count, `post(s)${c.community ? ` in ${c.community}` : ''}${author ? ` by ${author}` : ''}`);
}

async function workflowCheck(c: WorkflowCheck, ctx: CheckContext): Promise<Outcome> {
  const res = await ctx.readers.call<{ data: Array<{ id: string; name: string; active: boolean }> }>(
    'workflow',
    '/api/v1/workflows?limit=250',
  );
  if (res.status !== 200)
    return { pass: false, message: `the workflow service answered ${res.status} to the list of workflows` };
  const w = res.body.data.find((x) => x.name === c.name);
  if (c.exists === false)
    return w
      ? { pass: false, message: `workflow "${c.name}" exists` }
      : { pass: true, message: `no workflow "${c.name}"` };
  if (!w) return { pass: false, message: `no workflow "${c.name}"` };
  if (c.active !== undefined && w.active !== c.active)
    return { pass: false, message: `workflow "${c.name}" is ${w.active ? 'active' : 'inactive'}` };
  if (c.min_executions !== undefined) {
    const ex = await ctx.readers.call<{ data: unknown[] }>(
      'workflow',
      `/api/v1/executions?workflowId=${encodeURIComponent(w.id)}&limit=250`,
    );
    const n = ex.body.data?.length ?? 0;
    if (n < c.min_executions)
      return { pass: false, message: `workflow "${c.name}" ran ${n} time(s), expected at least ${c.min_executions}` };
  }
  return { pass: true, message: `workflow "${c.name}" is ${w.active ? 'active' : 'inactive'}` };
}

const matches = (pattern: string | undefined, value: string) =>
  pattern === undefined || (pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern);

/** Changes no rule allows (each rule names a service, and may narrow it to a kind and a subject). */
function unexpectedChanges(rule: CollateralCheck, changes: SemanticChange[]): SemanticChange[] {
  return changes.filter(
    (c) =>
      !(rule.allow ?? []).some(
        (a) => a.service === c.service && matches(a.kind, c.kind) && matches(a.subject, c.subject),
      ),
  );
}

/** Changes of the semantic diff matching the check (service, kind, subject, text). */
function changeCheck(c: ChangeCheck, ctx: CheckContext): Outcome {
  const found = ctx.changes.semantic.filter(
    (x) =>
      x.service === c.service &&
      matches(c.kind, x.kind) &&
      matches(c.subject, x.subject) &&
      has(x.text, c.text_contains),
  ).length;
  const what = [c.service, c.kind, c.subject && `of ${c.subject}`, c.text_contains && `saying "${c.text_contains}"`]
    .filter(Boolean)
    .join(' ');
  return counted(found, c.count, `change(s) ${what}`);
}

function collateralCheck(c: CollateralCheck, ctx: CheckContext): Outcome {
  const bad = unexpectedChanges(c, ctx.changes.semantic);
  if (!bad.length)
    return { pass: true, message: `nothing else changed (${ctx.changes.semantic.length} change(s), all allowed)` };
  const shown = bad.slice(0, 10).map((b) => `${b.service}: ${b.text}`);
  return {
    pass: false,
    message: `${bad.length} change(s) not allowed: ${shown.join('; ')}${bad.length > 10 ? '; …' : ''}`,
  };
}

function nameOf(check: Check, kind: CheckKind): string {
  if (check.name) return check.name;
  const body = check[kind];
  return `${kind} ${typeof body === 'string' ? body : JSON.stringify(body)}`.slice(0, 200);
}

/** Runs every check; a check that throws fails with what it threw, the others still run. */
export async function runChecks(checks: Check[], ctx: CheckContext): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const kind = CHECK_KINDS.find((k) => check[k] !== undefined)!;
    let outcome: Outcome;
    try {
      if (check.mail) outcome = await mailCheck(check.mail, ctx);
      else if (check.home) outcome = await homeCheck(check.home, ctx);
      else if (check.blog) outcome = await blogCheck(check.blog, ctx);
      else if (check.community) outcome = await communityCheck(check.community, ctx);
      else if (check.workflow) outcome = await workflowCheck(check.workflow, ctx);
      else if (check.change) outcome = changeCheck(check.change, ctx);
      else if (check.collateral) outcome = collateralCheck(check.collateral, ctx);
      else outcome = await runScriptCheck(check.script!, ctx.script);
    } catch (err) {
      outcome = { pass: false, message: `the check failed to run: ${(err as Error).message}` };
    }
    results.push({ name: nameOf(check, kind), kind, ...outcome });
  }
  return results;
}
