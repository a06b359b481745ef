// The WebSocket commands, one table: a command's name is written once, next to what it does.
// A command works through the Session of its connection (answers, subscriptions, the home).
import { MATCH_ALL } from '../core/bus.js';
import type { Context } from '../core/context.js';
import type { Home } from '../core/home.js';
import { attachTriggers, normalizeTriggers } from '../automations/triggers/index.js';
import type { Automations } from '../automations/engine.js';
import type { Persister } from '../recorder/persister.js';
import type { HomeStore } from '../store/index.js';
import { compressState, entityMessage, type EntityMessage } from './compressed.js';
import { renderTemplateCommand } from './render-template.js';
import { eventFrame } from './frames.js';
import { CommandError, expectObj, expectStr, formatError, type Msg } from './messages.js';
import { authCommands } from './auth-commands.js';
import { conversationCommands } from './conversation-commands.js';
import { historyCommands } from './history-commands.js';
import { notificationCommands } from './notification-commands.js';
import { registryCommands } from './registry-commands.js';
import { tagCommands } from './tag-commands.js';

/** What a command may do on its connection. */
export interface Session {
  readonly home: Home;
  readonly automations: Automations;
  readonly persist: Persister;
  /** The recorder's tables (history, logbook). */
  readonly store: HomeStore;
  /** A new context caused by this connection's user. */
  context(): Context;
  /** The user behind the connection's access token. */
  user(): SessionUser;
  /** Queues a message (text, or a shared encoded frame). */
  send(message: string | Buffer): void;
  result(id: number, result: unknown): void;
  subscribe(id: number, stop: () => void): void;
  /** Stops a subscription; false when there is none with that id. */
  unsubscribe(id: number): boolean;
  /** Adds a state change to a subscribe_entities subscription's pending event. */
  queueEntity(subscription: number, m: EntityMessage): void;
  /** supported_features' coalesce_messages: queued messages leave as one JSON array. */
  coalesce(on: boolean): void;
}

/** Who a connection acts as: the access token's key, seen as an HA user. */
export interface SessionUser {
  /** HA's 32-hex user id (the one contexts carry). */
  id: string;
  /** The key's name, if it was given one. */
  name: string | null;
}

export type Command = (session: Session, msg: Msg) => unknown;

const table: Record<string, Command> = {
  supported_features(s, msg) {
    const f = expectObj(msg, 'features') ?? {};
    s.coalesce(f.coalesce_messages === 1 || f.coalesce_messages === true);
    s.result(msg.id, null);
  },

  ping(s, msg) {
    s.send(`{"id":${msg.id},"type":"pong"}`);
  },

  get_states(s, msg) {
    const parts: string[] = [];
    for (const state of s.home.states.all()) parts.push(state.json());
    s.send(`{"id":${msg.id},"type":"result","success":true,"result":[${parts.join(',')}]}`);
  },

  get_config(s, msg) {
    s.result(msg.id, s.home.configObject());
  },

  get_services(s, msg) {
    s.result(msg.id, s.home.describeServices());
  },

  subscribe_events(s, msg) {
    const type = expectStr(msg, 'event_type', false) ?? MATCH_ALL;
    const id = msg.id;
    s.subscribe(
      id,
      s.home.bus.listen(type, (e) => s.send(eventFrame(e, id))),
    );
    s.result(id, null);
  },

  unsubscribe_events(s, msg) {
    const sub = msg.subscription;
    if (typeof sub !== 'number')
      throw formatError(`expected int for dictionary value @ data['subscription']. Got ${JSON.stringify(sub)}`);
    if (!s.unsubscribe(sub)) throw new CommandError('not_found', 'Subscription not found.');
    s.result(msg.id, null);
  },

  subscribe_entities(s, msg) {
    const id = msg.id;
    let filter: Set<string> | undefined;
    if (msg.entity_ids !== undefined) {
      if (!Array.isArray(msg.entity_ids) || msg.entity_ids.some((x) => typeof x !== 'string'))
        throw formatError(`expected a list for dictionary value @ data['entity_ids']`);
      filter = new Set((msg.entity_ids as string[]).map((x) => x.toLowerCase()));
    }
    s.subscribe(
      id,
      s.home.bus.listen('state_changed', (e) => {
        const m = entityMessage(e);
        if (filter && !filter.has(m.entityId)) return;
        s.queueEntity(id, m);
      }),
    );
    s.result(id, null);
    const snapshot: Record<string, unknown> = {};
    for (const state of s.home.states.all())
      if (!filter || filter.has(state.entity_id)) snapshot[state.entity_id] = compressState(state);
    s.send(`{"id":${id},"type":"event","event":${JSON.stringify({ a: snapshot })}}`);
  },

  fire_event(s, msg) {
    const type = expectStr(msg, 'event_type', true)!;
    const data = expectObj(msg, 'event_data') ?? {};
    const context = s.context();
    s.home.fire(type, data, context, 'LOCAL');
    return s.persist.commit().then(() => s.result(msg.id, { context }));
  },

  async call_service(s, msg) {
    const domain = expectStr(msg, 'domain', true)!;
    const service = expectStr(msg, 'service', true)!;
    const data = expectObj(msg, 'service_data') ?? {};
    const returnResponse = msg.return_response === true;
    const context = s.context();
    const r = await s.home.callService(domain, service, data, { target: msg.target, context, returnResponse });
    await s.persist.commit();
    s.result(msg.id, returnResponse ? { context, response: r.response } : { context });
  },

  subscribe_trigger(s, msg) {
    const id = msg.id;
    if (msg.trigger === undefined) throw formatError(`required key not provided @ data['trigger']`);
    let triggers;
    try {
      triggers = normalizeTriggers(msg.trigger);
    } catch (err) {
      throw formatError((err as Error).message);
    }
    const variables = expectObj(msg, 'variables') ?? {};
    const stop = attachTriggers(s.home, triggers, (vars, context) =>
      s.send(
        JSON.stringify({
          id,
          type: 'event',
          event: { variables: { ...variables, trigger: vars }, context: context ?? s.context() },
        }),
      ),
    );
    s.subscribe(id, stop);
    s.result(id, null);
  },

  render_template: renderTemplateCommand,

  validate_config(s, msg) {
    s.result(msg.id, s.automations.validateParts(msg));
  },

  'webhook/list'(s, msg) {
    s.result(
      msg.id,
      [...s.home.webhooks].map(([webhook_id, h]) => ({
        webhook_id,
        domain: 'automation',
        name: webhook_id,
        local_only: h.localOnly,
        allowed_methods: h.allowedMethods,
      })),
    );
  },
};

/** The commands by type (a Map, so a type such as "constructor" is simply unknown). */
export const COMMANDS: ReadonlyMap<string, Command> = new Map(
  Object.entries({
    ...table,
    ...authCommands,
    ...registryCommands,
    ...notificationCommands,
    ...tagCommands,
    ...historyCommands,
    ...conversationCommands,
  }),
);
