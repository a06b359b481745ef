// The simulated people's engine: hears what happens in the world on the platform bus (a mail
// received, a community post created), runs the people's rules in the order declared, and acts
// through the services' public APIs with keys of the person's own accounts, so what a person
// does is traced and diffed like any agent's call. Timed rules and delays wait on the platform
// clock (platform.timers): a frozen clock holds them, an advance runs them in time order.
//
// The keys the engine acts with are minted for this process under the console's name
// (`hamlet-console`, owned by the person's account): instance rows, not world state, so the
// engine's own keys appear in no snapshot, diff or hash, and are revoked when it stops.
import type { Platform } from '../../platform/service.js';
import { COMMUNITY_POST_CREATED, MAIL_RECEIVED, type MailReceived } from '../../platform/topics.js';
import { CONSOLE_KEY_NAME } from '../../platform/keys.js';
import { ServiceClient } from '../../platform/console-client.js';
import { mintAgentKeys, type AgentKeys } from '../world/agent-keys.js';
import { durationMs, type PersonAction, type PersonRule, type PersonSpec } from '../world/people-rules.js';
import { mailConversation, postConversation, type Turn } from './conversation.js';
import { chooseText } from './choice.js';
import { askSimulator, replyText, SimulatorError } from './simulator-http.js';

/** What triggered a rule, as a simulator is told it. */
export type PersonEvent =
  | { kind: 'mail'; inbox: string; message_id: string; thread_id: string; from: string; subject: string; text?: string }
  | { kind: 'post'; post_id: string; community: string; title: string; author: string }
  | { kind: 'time'; at: string };

const DEFAULT_TIMES = 10;

export interface PeopleOptions {
  /**
   * Told of every action that could not happen, as one sentence naming the person and the rule
   * (`sam, rules[0]: the simulator at … did not answer within 10 s`). Default: the log only.
   */
  onError?: (message: string) => void;
  /** Draws a rule's choice among several texts (people/choice.ts); default 0. */
  seed?: number;
}

interface Armed {
  spec: PersonSpec;
  keys: AgentKeys;
  fired: number[];
}

export class PeopleEngine {
  private people = new Map<string, Armed>();
  private readonly cancels: Array<() => void> = [];
  private readonly client: ServiceClient;
  private readonly unsubscribe: Array<() => void>;
  /** The person keys minted by arm(), revoked by stop(). */
  private readonly minted: Array<{ service: string; key: string }> = [];
  /**
   * Everything the people do runs here, one thing after another in the order it was heard, so
   * the same episode gives the same world: two people answering one mail answer in rule order.
   */
  private queue: Promise<void> = Promise.resolve();
  private pending = 0;
  private stopped = false;

  constructor(
    private readonly platform: Platform,
    private readonly services: string[],
    private readonly opts: PeopleOptions = {},
  ) {
    this.client = new ServiceClient(platform);
    this.unsubscribe = [
      platform.events.subscribe(MAIL_RECEIVED, (m) => this.heard({ on: 'mail', mail: m })),
      platform.events.subscribe(COMMUNITY_POST_CREATED, (p) => this.heard({ on: 'post', post: p })),
    ];
  }

  /** The people now in the world and how often each rule fired. */
  list(): Array<{ name: string; rules: PersonRule[]; fired: number[] }> {
    return [...this.people.values()].map((p) => ({ name: p.spec.name, rules: p.spec.rules, fired: [...p.fired] }));
  }

  /** Arms the people of a seeded scenario (a person of the same name is replaced). */
  async arm(specs: PersonSpec[]): Promise<void> {
    for (const spec of specs) {
      const keys = await mintAgentKeys(this.platform, spec.name, this.services, undefined, CONSOLE_KEY_NAME);
      for (const [service, k] of Object.entries(keys)) this.minted.push({ service, key: k.key });
      const armed: Armed = { spec, keys, fired: spec.rules.map(() => 0) };
      this.people.set(spec.name, armed);
      spec.rules.forEach((rule, i) => {
        if (rule.at)
          this.cancels.push(
            this.platform.timers.at(Date.parse(rule.at), () =>
              this.run(armed, i, () => this.fire(armed, i, { kind: 'time', at: rule.at! })),
            ),
          );
      });
    }
  }

  /** Whether anything the people were told to do has not finished (a delay on the clock is not counted). */
  get busy(): boolean {
    return this.pending > 0;
  }

  /** Waits for the actions under way (those a delay holds on the clock are not under way). */
  async idle(): Promise<void> {
    while (this.pending) await this.queue;
  }

  /** Stops hearing and acting, waits for what is under way, and revokes the people's keys. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const u of this.unsubscribe) u();
    for (const c of this.cancels.splice(0)) c();
    await this.idle();
    this.people.clear();
    for (const { service, key } of this.minted.splice(0)) {
      const record = await this.platform.keys.verify(service, key);
      if (record) await this.platform.keys.revoke({ service, id: record.id });
    }
    await this.client.release();
  }

  private heard(e: { on: 'mail'; mail: MailReceived } | { on: 'post'; post: Record<string, unknown> }): void {
    for (const person of this.people.values()) {
      person.spec.rules.forEach((rule, i) => {
        if (rule.on !== e.on) return;
        if (e.on === 'mail') {
          // A person hears mail in their own inbox, never their own mail (no talking to oneself).
          if (
            person.keys.mail?.inbox !== e.mail.inbox_id ||
            e.mail.from.toLowerCase().includes(person.keys.mail.inbox.toLowerCase())
          )
            return;
          void this.run(person, i, () => this.onMail(person, i, e.mail));
        } else {
          const post = e.post as {
            id?: string;
            title?: string;
            author?: { name?: string };
            community?: { name?: string };
          };
          if (post.author?.name === person.keys.community?.name) return;
          const event: PersonEvent = {
            kind: 'post',
            post_id: String(post.id),
            community: post.community?.name ?? '',
            title: post.title ?? '',
            author: post.author?.name ?? '',
          };
          if (
            matches(rule.match?.community, event.community) &&
            matches(rule.match?.title, event.title) &&
            matches(rule.match?.author, event.author)
          )
            this.schedule(person, i, event);
        }
      });
    }
  }

  private async onMail(person: Armed, i: number, m: MailReceived): Promise<void> {
    const rule = person.spec.rules[i];
    const event: PersonEvent = {
      kind: 'mail',
      inbox: m.inbox_id,
      message_id: m.message_id,
      thread_id: m.thread_id,
      from: m.from,
      subject: m.subject ?? '',
    };
    if (!matches(rule.match?.subject, event.subject) || !matches(rule.match?.from, event.from)) return;
    if (rule.match?.text || rule.simulator) {
      const res = await this.client.request<{ text?: string }>(
        'mail',
        `/v0/inboxes/${encodeURIComponent(m.inbox_id)}/messages/${encodeURIComponent(m.message_id)}`,
        { auth: person.keys.mail.key },
      );
      event.text = res.body?.text ?? '';
      if (!matches(rule.match?.text, event.text)) return;
    }
    // Already on the queue: acted on at once, or held on the clock.
    if (rule.after) this.schedule(person, i, event);
    else await this.fire(person, i, event);
  }

  private schedule(person: Armed, i: number, event: PersonEvent): void {
    const rule = person.spec.rules[i];
    const act = () => this.run(person, i, () => this.fire(person, i, event));
    if (rule.after) this.cancels.push(this.platform.timers.after(durationMs(rule.after), act));
    else void act();
  }

  /**
   * Queues one piece of a person's work; what fails is reported with the person and the rule.
   * The promise settles when the work is done (a timer waits for it, so an advance includes it).
   */
  private run(person: Armed, i: number, work: () => Promise<void>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    this.pending++;
    const done = this.queue.then(work).catch((err: Error) => {
      const message = `${person.spec.name}, rules[${i}]: ${err.message}`;
      this.platform.logger.warn({ err, person: person.spec.name, rule: i }, 'a simulated person could not act');
      this.opts.onError?.(message);
    });
    this.queue = done.finally(() => this.pending--);
    return this.queue;
  }

  /** Runs a rule's action (or asks the simulator for one), counting it against `times`. */
  private async fire(person: Armed, i: number, event: PersonEvent): Promise<void> {
    const rule = person.spec.rules[i];
    if (person.fired[i] >= (rule.times ?? DEFAULT_TIMES) || this.people.get(person.spec.name) !== person) return;
    person.fired[i]++;
    let action: PersonAction | undefined = rule;
    if (rule.simulator) action = await this.ask(rule.simulator, person, rule, event);
    else if (rule.reply_from) action = await this.replyFrom(rule.reply_from, person, rule, event);
    if (action) await this.act(person, action, event, { rule: i, turn: person.fired[i] - 1 });
  }

  private simulatorOptions(rule: PersonRule) {
    return {
      allowInternal: this.platform.config.allowInternalRequests,
      timeoutMs: rule.timeout ? durationMs(rule.timeout) : undefined,
    };
  }

  /** An external user simulator: told the person, the rule and the event; its JSON answer is the action ({} for none). */
  private async ask(
    url: string,
    person: Armed,
    rule: PersonRule,
    event: PersonEvent,
  ): Promise<PersonAction | undefined> {
    const answer = await askSimulator(
      url,
      { person: person.spec.name, rule, event, now: this.platform.clock.now().toISOString() },
      this.simulatorOptions(rule),
    );
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text || '{}');
    } catch {
      throw new SimulatorError(`the simulator at ${url} answered JSON that does not parse`);
    }
    const why = notAnAction(parsed);
    if (why) throw new SimulatorError(`the simulator at ${url} answered ${why}`);
    return parsed as PersonAction;
  }

  /**
   * A person whose words come from an outside simulator: told the conversation so far (the mail
   * thread, or the post and its comments), it answers the text of the reply or comment.
   */
  private async replyFrom(
    url: string,
    person: Armed,
    rule: PersonRule,
    event: PersonEvent,
  ): Promise<PersonAction | undefined> {
    let conversation: Turn[] = [];
    if (event.kind === 'mail') conversation = await mailConversation(this.client, person.keys, event.thread_id);
    else if (event.kind === 'post') conversation = await postConversation(this.client, person.keys, event.post_id);
    const answer = await askSimulator(
      url,
      { person: person.spec.name, event, conversation, now: this.platform.clock.now().toISOString() },
      this.simulatorOptions(rule),
    );
    let text: string;
    try {
      text = replyText(answer);
    } catch (err) {
      throw new SimulatorError(`the simulator at ${url}: ${(err as Error).message.replace(/^the simulator /, '')}`);
    }
    if (!text) return undefined;
    return event.kind === 'mail' ? { reply: text } : { comment: text };
  }

  private async act(
    person: Armed,
    action: PersonAction,
    event: PersonEvent,
    at: { rule: number; turn: number },
  ): Promise<void> {
    const choose = (options: string | string[]) =>
      chooseText(options, { seed: this.opts.seed ?? 0, person: person.spec.name, ...at });
    const call = async (service: string, path: string, body: unknown) => {
      const key = person.keys[service]?.key;
      if (!key) throw new Error(`${person.spec.name} has no ${service} account to act with`);
      const res = await this.client.request<{ message?: unknown } | null>(service, path, {
        method: 'POST',
        body,
        auth: key,
      });
      if (res.status >= 300) {
        const why = typeof res.body?.message === 'string' ? `: ${res.body.message.slice(0, 300)}` : '';
        throw new Error(`${service} POST ${path} answered ${res.status}${why}`);
      }
    };
    const inbox = person.keys.mail?.inbox ?? '';
    if (action.reply !== undefined && event.kind === 'mail')
      await call(
        'mail',
        `/v0/inboxes/${encodeURIComponent(inbox)}/messages/${encodeURIComponent(event.message_id)}/reply`,
        { text: choose(action.reply) },
      );
    if (action.send) {
      const to = action.send.to.includes('@') ? action.send.to : `${action.send.to}@${inbox.split('@')[1] ?? ''}`;
      await call('mail', `/v0/inboxes/${encodeURIComponent(inbox)}/messages/send`, {
        to: [to],
        subject: action.send.subject,
        text: action.send.text,
      });
    }
    if (action.comment !== undefined && event.kind === 'post')
      await call('community', `/api/v1/posts/${encodeURIComponent(event.post_id)}/comments`, {
        content: choose(action.comment),
      });
    if (action.home) {
      const [domain, service] = action.home.service.split('.');
      await call('home', `/api/services/${domain}/${service}`, action.home.data ?? {});
    }
  }
}

/** Why a simulator's answer is not an action (reply, send, comment, home, each of its shape), or undefined. */
function notAnAction(answer: unknown): string | undefined {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return 'something other than a JSON object';
  const a = answer as Record<string, unknown>;
  const text = (v: unknown): v is string => typeof v === 'string';
  const object = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
  const unknown = Object.keys(a).filter((k) => !['reply', 'send', 'comment', 'home'].includes(k));
  if (unknown.length) return `an action with ${unknown.join(', ')} (it takes reply, send, comment, home)`;
  if (a.reply !== undefined && !text(a.reply)) return 'a reply that is not a text';
  if (a.comment !== undefined && !text(a.comment)) return 'a comment that is not a text';
  if (a.send !== undefined && !(object(a.send) && text(a.send.to) && text(a.send.subject) && text(a.send.text)))
    return 'a send without {to, subject, text}';
  if (
    a.home !== undefined &&
    !(
      object(a.home) &&
      text(a.home.service) &&
      /^[a-z_]+\.[a-z0-9_]+$/.test(a.home.service) &&
      (a.home.data === undefined || object(a.home.data))
    )
  )
    return 'a home call without {service: domain.service, data}';
  return undefined;
}

const matches = (pattern: string | undefined, value: string): boolean =>
  pattern === undefined || new RegExp(pattern, 'i').test(value);

const engines = new WeakMap<Platform, PeopleEngine>();

/** The engine of a platform, made on first use (the console's people module stops it). */
export function peopleOf(platform: Platform, services: string[]): PeopleEngine {
  let engine = engines.get(platform);
  if (!engine) engines.set(platform, (engine = new PeopleEngine(platform, services)));
  return engine;
}
