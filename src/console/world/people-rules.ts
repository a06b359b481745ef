// Simulated people: the rules a scenario declares for the people in its world (docs/harness.md,
// "Simulated people"). A person is one of the scenario's agents; each rule is a trigger (a mail
// arriving in the person's inbox, a post in a community, a time on the platform clock) and an
// action (reply, send a mail, comment, call a home service), or an external simulator asked
// over HTTP what to do. Rules are data, checked here before anything is seeded, so a typo is a
// 400 naming its place.
import { ScenarioError } from './scenario-error.js';

export interface MailMatch {
  /** Regular expressions, case-insensitive; every one given must match. */
  subject?: string;
  from?: string;
  text?: string;
}

export interface PostMatch {
  community?: string;
  title?: string;
  author?: string;
}

export interface PersonAction {
  /** Answer the mail that triggered the rule, in its thread; of a list, one drawn from the seed (people/choice.ts). */
  reply?: string | string[];
  /** Send a new mail from the person's inbox. `to`: an agent of the world or an address. */
  send?: { to: string; subject: string; text: string };
  /** Comment on the post that triggered the rule; of a list, one drawn from the seed. */
  comment?: string | string[];
  /** Call a home service with the person's home key: `climate.set_temperature` and its data. */
  home?: { service: string; data?: Record<string, unknown> };
}

export interface PersonRule extends PersonAction {
  on?: 'mail' | 'post';
  match?: MailMatch & PostMatch;
  /** Once, at this time on the platform clock (ISO 8601). */
  at?: string;
  /** Wait this long on the platform clock before acting: `30s`, `10m`, `2h`, `1d`. */
  after?: string;
  /** How many times the rule may fire (default 10), so two people cannot mail each other forever. */
  times?: number;
  /** Ask an external user simulator: POST {person, rule, event} here; its JSON answer is the action. */
  simulator?: string;
  /**
   * The person's reply (to a mail) or comment (on a post) comes from an outside user simulator:
   * POST {person, event, conversation, now} here; the answer's text is what the person says.
   */
  reply_from?: string;
  /** How long a simulator (`simulator`, `reply_from`) may take: `5s`, at most 60s (default 10s). */
  timeout?: string;
}

export interface PersonSpec {
  name: string;
  rules: PersonRule[];
}

const ACTIONS = ['reply', 'send', 'comment', 'home'] as const;
const RULE_FIELDS = new Set(['on', 'match', 'at', 'after', 'times', 'simulator', 'reply_from', 'timeout', ...ACTIONS]);
/** The longest a simulator may be waited for, so a slow one cannot hold an episode. */
const MAX_SIMULATOR_TIMEOUT_MS = 60_000;
const DURATION = /^(\d{1,6})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `10m` in milliseconds. */
export function durationMs(text: string): number {
  const m = DURATION.exec(text)!;
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

const isText = (v: unknown): v is string => typeof v === 'string';
/** A text, or a list of 1 to 50 texts to choose from. */
const isTexts = (v: unknown): boolean =>
  isText(v) || (Array.isArray(v) && v.length >= 1 && v.length <= 50 && v.every(isText));

function checkRegex(v: unknown, where: string): void {
  if (!isText(v) || v.length > 500)
    throw new ScenarioError(`${where}: a regular expression (text, at most 500 characters)`);
  try {
    new RegExp(v, 'i');
  } catch {
    throw new ScenarioError(`${where}: not a regular expression`);
  }
}

function checkUrl(v: unknown, where: string): void {
  let url: URL | undefined;
  try {
    url = new URL(String(v));
  } catch {
    url = undefined;
  }
  if (!isText(v) || !url || !['http:', 'https:'].includes(url.protocol))
    throw new ScenarioError(`${where}: an http(s) URL`);
}

/** `agents` undefined: the world's agents are not known yet (a task on a demo or a snapshot); names are checked when it is made. */
function checkRule(r: unknown, where: string, agents: Set<string> | undefined): void {
  if (!r || typeof r !== 'object' || Array.isArray(r))
    throw new ScenarioError(`${where}: a mapping (on/at, match, and an action)`);
  const rule = r as Record<string, unknown>;
  for (const k of Object.keys(rule))
    if (!RULE_FIELDS.has(k))
      throw new ScenarioError(`${where}.${k}: not a field of a rule (${[...RULE_FIELDS].join(', ')})`);
  if ((rule.on === undefined) === (rule.at === undefined))
    throw new ScenarioError(`${where}: either on (mail, post) or at (a time), one of the two`);
  if (rule.on !== undefined && rule.on !== 'mail' && rule.on !== 'post')
    throw new ScenarioError(`${where}.on: mail or post`);
  if (
    rule.at !== undefined &&
    (!isText(rule.at) || Number.isNaN(Date.parse(rule.at)) || !/^\d{4}-\d{2}-\d{2}T/.test(rule.at))
  )
    throw new ScenarioError(`${where}.at: an ISO 8601 time (2026-01-05T20:00:00Z)`);
  if (rule.after !== undefined && (!isText(rule.after) || !DURATION.test(rule.after)))
    throw new ScenarioError(`${where}.after: a duration such as 30s, 10m, 2h or 1d`);
  if (
    rule.times !== undefined &&
    (!Number.isSafeInteger(rule.times) || (rule.times as number) < 1 || (rule.times as number) > 1000)
  )
    throw new ScenarioError(`${where}.times: a whole number from 1 to 1000`);
  if (rule.match !== undefined) {
    if (!rule.match || typeof rule.match !== 'object' || Array.isArray(rule.match))
      throw new ScenarioError(`${where}.match: a mapping`);
    const allowed = rule.on === 'post' ? ['community', 'title', 'author'] : ['subject', 'from', 'text'];
    for (const [k, v] of Object.entries(rule.match)) {
      if (!allowed.includes(k))
        throw new ScenarioError(`${where}.match.${k}: not a field here (${allowed.join(', ')})`);
      checkRegex(v, `${where}.match.${k}`);
    }
  }
  const actions = ACTIONS.filter((a) => rule[a] !== undefined);
  const asks = ['simulator', 'reply_from'].filter((a) => rule[a] !== undefined);
  if (actions.length + asks.length !== 1)
    throw new ScenarioError(`${where}: one action (${ACTIONS.join(', ')}), a simulator or reply_from`);
  if (rule.simulator !== undefined) checkUrl(rule.simulator, `${where}.simulator`);
  if (rule.reply_from !== undefined) {
    checkUrl(rule.reply_from, `${where}.reply_from`);
    if (rule.on === undefined) throw new ScenarioError(`${where}.reply_from: on a rule with on: mail or on: post`);
  }
  if (rule.timeout !== undefined) {
    if (!asks.length) throw new ScenarioError(`${where}.timeout: only with simulator or reply_from`);
    if (!isText(rule.timeout) || !DURATION.test(rule.timeout) || !inRange(durationMs(rule.timeout)))
      throw new ScenarioError(`${where}.timeout: a duration from 1s to 60s`);
  }
  if (rule.reply !== undefined && (rule.on !== 'mail' || !isTexts(rule.reply)))
    throw new ScenarioError(`${where}.reply: a text (or a list of 1 to 50), on a rule with on: mail`);
  if (rule.comment !== undefined && (rule.on !== 'post' || !isTexts(rule.comment)))
    throw new ScenarioError(`${where}.comment: a text (or a list of 1 to 50), on a rule with on: post`);
  if (rule.send !== undefined) {
    const s = rule.send as Record<string, unknown>;
    if (!s || typeof s !== 'object' || !isText(s.to) || !isText(s.subject) || !isText(s.text))
      throw new ScenarioError(`${where}.send: {to, subject, text}`);
    if (!s.to.includes('@') && agents && !agents.has(s.to))
      throw new ScenarioError(`${where}.send.to: no agent named ${JSON.stringify(s.to)}`);
  }
  if (rule.home !== undefined) {
    const h = rule.home as Record<string, unknown>;
    if (!h || typeof h !== 'object' || !isText(h.service) || !/^[a-z_]+\.[a-z0-9_]+$/.test(h.service))
      throw new ScenarioError(`${where}.home.service: domain.service, such as climate.set_temperature`);
    if (h.data !== undefined && (!h.data || typeof h.data !== 'object' || Array.isArray(h.data)))
      throw new ScenarioError(`${where}.home.data: a mapping`);
  }
}

const inRange = (ms: number) => ms >= 1000 && ms <= MAX_SIMULATOR_TIMEOUT_MS;

/**
 * Checks a scenario's (or a task's) `people` against its agents; throws a ScenarioError naming
 * the place. Without `agents` (not known yet) the names are left to whoever arms the people.
 */
export function checkPeople(people: unknown, agents: Set<string> | undefined): PersonSpec[] {
  if (people === undefined) return [];
  if (!Array.isArray(people)) throw new ScenarioError('people: a list');
  const seen = new Set<string>();
  return people.map((p, i) => {
    const where = `people[${i}]`;
    const person = p as { name?: unknown; rules?: unknown };
    if (!isText(person.name) || (agents && !agents.has(person.name)))
      throw new ScenarioError(`${where}.name: an agent of the scenario (the person's accounts are the agent's)`);
    if (seen.has(person.name)) throw new ScenarioError(`${where}.name: ${person.name} appears twice`);
    seen.add(person.name);
    for (const k of Object.keys(person))
      if (k !== 'name' && k !== 'rules')
        throw new ScenarioError(`${where}.${k}: not a field of a person (name, rules)`);
    if (!Array.isArray(person.rules) || !person.rules.length || person.rules.length > 100)
      throw new ScenarioError(`${where}.rules: a list of 1 to 100 rules`);
    person.rules.forEach((r, j) => checkRule(r, `${where}.rules[${j}]`, agents));
    return person as PersonSpec;
  });
}
