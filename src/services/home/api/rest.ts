// HA's REST API under /api: states, services, events, history, logbook, webhooks and the
// automation config API. Errors are always JSON {"message"} with HA's status codes.
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../platform/errors.js';
import { bearerToken, type App } from '../../../platform/http.js';
import type { Platform } from '../../../platform/service.js';
import { userIdOf } from '../core/context.js';
import { HomeError, statusOf } from '../core/errors.js';
import type { Home } from '../core/home.js';
import { isValidEntityId } from '../core/state.js';
import { parseIsoUs } from '../core/time.js';
import type { Automations } from '../automations/engine.js';
import type { Persister } from '../persist.js';
import { history } from '../recorder/history.js';
import { logbook } from '../recorder/logbook.js';
import type { HomeStore } from '../store.js';
import { isLocalAddress } from './local.js';

export interface RestDeps {
  home: Home;
  platform: Platform;
  persist: Persister;
  store: HomeStore;
  automations: Automations;
}

/** A body that was sent but is not JSON (routes answer with their own HA message). */
const INVALID_JSON = Symbol('invalid json');

const DAY_US = 86_400_000_000;

/**
 * OpenAPI descriptions. Bodies and query values are checked by the handlers themselves, with
 * Home Assistant's own error messages, so these schemas only describe (strings always pass).
 */
const doc = (summary: string, query: string[] = []) => ({
  tags: ['home'],
  summary,
  ...(query.length ? { querystring: Type.Object(Object.fromEntries(query.map((q) => [q, Type.Optional(Type.String())])), { additionalProperties: true }) } : {}),
});
const HISTORY_QUERY = ['filter_entity_id', 'end_time', 'minimal_response', 'no_attributes', 'significant_changes_only', 'skip_initial_state'];
const LOGBOOK_QUERY = ['period', 'end_time', 'entity', 'context_id'];
const bad = (message: string) => new HttpError(400, message);
const JSON_TYPE = 'application/json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    homeUserId: string | null;
  }
}

function homeErrorToHttp(err: unknown): never {
  if (err instanceof HomeError) throw new HttpError(statusOf(err.code), err.message, err.code);
  throw err;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Known paths and their methods; any other method on them is 405 (HEAD comes with GET). */
const ALLOWED: Record<string, string[]> = {
  '/api/': ['GET'],
  '/api/config': ['GET'],
  '/api/states': ['GET'],
  '/api/states/:entity_id': ['GET', 'POST', 'DELETE'],
  '/api/services': ['GET'],
  '/api/services/:domain/:service': ['POST'],
  '/api/events': ['GET'],
  '/api/events/:event_type': ['POST'],
  '/api/history/period': ['GET'],
  '/api/history/period/:timestamp': ['GET'],
  '/api/logbook': ['GET'],
  '/api/logbook/:timestamp': ['GET'],
  '/api/webhook/:webhook_id': ['GET', 'POST', 'PUT'],
  '/api/config/automation/config/:id': ['GET', 'POST', 'DELETE'],
};

export function registerRest(app: App, deps: RestDeps): void {
  const { home, platform, persist, store, automations } = deps;

  // Bodies: JSON when it parses; anything else is kept as text for the routes that take it (webhooks).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const text = (body as string).trim();
    const type = String(req.headers['content-type'] ?? '');
    if (text === '') return done(null, undefined);
    if (type.includes('x-www-form-urlencoded')) return done(null, { __form: Object.fromEntries(new URLSearchParams(text)) });
    try {
      done(null, JSON.parse(text));
    } catch {
      done(null, INVALID_JSON);
    }
  });

  app.decorateRequest('homeUserId', null);
  app.addHook('onRequest', async (request) => {
    const url = request.url;
    if (!url.startsWith('/api') || url.startsWith('/api/webhook/') || url.startsWith('/api/websocket')) return;
    const key = await platform.keys.verify('home', bearerToken(request));
    if (!key) throw new HttpError(401, 'Unauthorized');
    request.homeUserId = userIdOf(key.id);
  });

  for (const [url, methods] of Object.entries(ALLOWED)) {
    const others = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].filter((m) => !methods.includes(m));
    app.route({ method: others, url, schema: { hide: true }, handler: async () => { throw new HttpError(405, 'Method not allowed'); } });
  }

  const ctx = (request: FastifyRequest) => home.context(request.homeUserId);

  app.get('/api/', { schema: doc('API status') }, async () => ({ message: 'API running.' }));
  app.get('/api/config', { schema: doc('The home configuration (location, units, components, version)') }, async () => home.configObject());

  app.get('/api/states', { schema: doc('Every entity state') }, async (_req, reply) => {
    const parts: string[] = [];
    for (const s of home.states.all()) parts.push(s.json());
    return reply.type(JSON_TYPE).send(`[${parts.join(',')}]`);
  });

  app.get<{ Params: { entity_id: string } }>('/api/states/:entity_id', { schema: doc('One entity state') }, async (request, reply) => {
    const s = home.states.get(request.params.entity_id.toLowerCase());
    if (!s) throw new HttpError(404, 'Entity not found.');
    return reply.type(JSON_TYPE).send(s.json());
  });

  app.post<{ Params: { entity_id: string } }>('/api/states/:entity_id', { schema: doc('Set what an entity reports: {state, attributes?, force_update?}') }, async (request, reply) => {
    const body = request.body;
    if (body === INVALID_JSON) throw bad('Invalid JSON specified.');
    if (!isObject(body)) throw bad('State data should be a JSON object');
    const entityId = request.params.entity_id.toLowerCase();
    if (!isValidEntityId(entityId)) throw bad('Invalid entity ID specified.');
    if (body.state === undefined || body.state === null) throw bad('No state attribute specified.');
    if (typeof body.state === 'object') throw bad('Invalid state specified.');
    const state = String(body.state);
    if (state.length > 255) throw bad('Invalid state specified.');
    if (body.attributes !== undefined && body.attributes !== null && !isObject(body.attributes)) throw bad('attributes: expected dict');
    let r: ReturnType<typeof home.states.set>;
    try {
      r = home.states.set(entityId, state, (body.attributes as Record<string, unknown>) ?? {}, ctx(request), body.force_update === true);
    } catch (err) {
      homeErrorToHttp(err);
    }
    await persist.commit();
    return reply.code(r.created ? 201 : 200).header('Location', `/api/states/${entityId}`).type(JSON_TYPE).send(r.state.json());
  });

  app.delete<{ Params: { entity_id: string } }>('/api/states/:entity_id', { schema: doc('Remove an entity') }, async (request) => {
    if (!home.states.remove(request.params.entity_id.toLowerCase(), ctx(request))) throw new HttpError(404, 'Entity not found.');
    await persist.commit();
    return { message: 'Entity removed.' };
  });

  app.get('/api/services', { schema: doc('Every service with its fields') }, async () => Object.entries(home.describeServices()).map(([domain, services]) => ({ domain, services })));

  app.post<{ Params: { domain: string; service: string }; Querystring: Record<string, string> }>('/api/services/:domain/:service', { schema: doc('Call a service; answers with the states it changed', ['return_response']) }, async (request, reply) => {
    const body = request.body ?? {};
    if (body === INVALID_JSON || !isObject(body)) throw bad('Data should be valid JSON.');
    const returnResponse = 'return_response' in (request.query ?? {});
    const { domain, service } = request.params;
    const result = await home.callService(domain.toLowerCase(), service.toLowerCase(), body, { context: ctx(request), returnResponse }).catch(homeErrorToHttp);
    await persist.commit();
    const changed = `[${result.changed.map((s) => s.json()).join(',')}]`;
    return reply.type(JSON_TYPE).send(returnResponse ? `{"changed_states":${changed},"service_response":${JSON.stringify(result.response ?? {})}}` : changed);
  });

  app.get('/api/events', { schema: doc('Event types and their listener counts') }, async () => home.bus.listenerCounts());

  app.post<{ Params: { event_type: string } }>('/api/events/:event_type', { schema: doc('Fire an event with the body as its data') }, async (request) => {
    const body = request.body ?? {};
    if (body === INVALID_JSON) throw bad('Event data should be valid JSON.');
    if (!isObject(body)) throw bad('Event data should be a JSON object');
    const type = request.params.event_type;
    // state_changed carries state objects the home must have made itself.
    if (type === 'state_changed') throw bad('Event state_changed cannot be fired over the API; POST /api/states instead.');
    home.fire(type, body, ctx(request), 'REMOTE');
    await persist.commit();
    return { message: `Event ${type} fired.` };
  });

  const historyHandler = async (request: FastifyRequest<{ Params: { timestamp?: string }; Querystring: Record<string, string> }>, reply: FastifyReply) => {
    const q = request.query ?? {};
    const nowUs = home.nowUs();
    let startUs = nowUs - DAY_US;
    if (request.params.timestamp) {
      const t = parseIsoUs(request.params.timestamp);
      if (t === undefined) throw bad('Invalid datetime');
      startUs = t;
    }
    if (startUs > nowUs) return reply.type(JSON_TYPE).send('[]');
    let endUs = startUs + DAY_US;
    if (q.end_time !== undefined) {
      const t = parseIsoUs(q.end_time);
      if (t === undefined) throw bad('Invalid end_time');
      endUs = t;
    }
    if (!q.filter_entity_id) throw bad('filter_entity_id is missing');
    const ids = q.filter_entity_id.split(',').map((x) => x.trim().toLowerCase());
    if (ids.some((x) => !isValidEntityId(x))) throw bad('Invalid filter_entity_id');
    const body = await history(store, {
      entityIds: ids,
      startUs,
      endUs,
      minimalResponse: 'minimal_response' in q,
      noAttributes: 'no_attributes' in q,
      skipInitialState: 'skip_initial_state' in q,
      significantChangesOnly: q.significant_changes_only !== '0',
    });
    return reply.type(JSON_TYPE).send(body);
  };
  app.get('/api/history/period', { schema: doc('State history since a day ago', HISTORY_QUERY) }, historyHandler);
  app.get('/api/history/period/:timestamp', { schema: doc('State history from a time', HISTORY_QUERY) }, historyHandler);

  const logbookHandler = async (request: FastifyRequest<{ Params: { timestamp?: string }; Querystring: Record<string, string> }>) => {
    const q = request.query ?? {};
    let startUs: number;
    if (request.params.timestamp) {
      const t = parseIsoUs(request.params.timestamp);
      if (t === undefined) throw bad('Invalid datetime');
      startUs = t;
    } else {
      startUs = startOfToday(home);
    }
    const period = q.period === undefined ? 1 : Number(q.period);
    if (!Number.isFinite(period) || period <= 0) throw bad('Invalid period');
    let endUs = startUs + period * DAY_US;
    if (q.end_time !== undefined) {
      const t = parseIsoUs(q.end_time);
      if (t === undefined) throw bad('Invalid end_time');
      endUs = t;
    }
    let entityIds: string[] | undefined;
    if (q.entity !== undefined) {
      entityIds = q.entity.split(',').map((x) => x.trim().toLowerCase());
      if (entityIds.some((x) => !isValidEntityId(x))) throw bad('Invalid entity');
    }
    if (entityIds && q.context_id) throw bad("Can't combine entity with context_id");
    return logbook(store, { startUs, endUs, entityIds, contextId: q.context_id });
  };
  app.get('/api/logbook', { schema: doc('Logbook since the start of today', LOGBOOK_QUERY) }, logbookHandler);
  app.get('/api/logbook/:timestamp', { schema: doc('Logbook from a time', LOGBOOK_QUERY) }, logbookHandler);

  // Webhooks: no auth; an unknown id also answers 200 so ids cannot be probed.
  const webhook = async (request: FastifyRequest<{ Params: { webhook_id: string }; Querystring: Record<string, unknown> }>, reply: FastifyReply) => {
    const handler = home.webhooks.get(request.params.webhook_id);
    if (handler) {
      if (!handler.allowedMethods.includes(request.method) && request.method !== 'HEAD') throw new HttpError(405, 'Method not allowed');
      const local = isLocalAddress(request.ip);
      const body = request.body;
      const isJson = String(request.headers['content-type'] ?? '').includes('json');
      const form = isObject(body) && isObject(body.__form) ? (body.__form as Record<string, string>) : {};
      // Invalid JSON does not fire, and still answers 200 (HA).
      if (!(isJson && body === INVALID_JSON) && (local || !handler.localOnly) && request.method !== 'HEAD') {
        try {
          handler.handle({
            method: request.method,
            json: isJson ? (body ?? {}) : {},
            data: form,
            query: request.query ?? {},
            headers: request.headers as Record<string, unknown>,
            local,
          });
        } catch (err) {
          request.log.error({ err }, 'webhook handler failed');
        }
      }
    }
    return reply.code(200).send();
  };
  app.route({ method: ['GET', 'POST', 'PUT'], url: '/api/webhook/:webhook_id', schema: { tags: ['home'], summary: 'Inbound webhook (no auth): triggers the automations that listen on it' }, handler: webhook });

  // HA's automation config API.
  app.get<{ Params: { id: string } }>('/api/config/automation/config/:id', { schema: doc('An automation config') }, async (request) => {
    const c = automations.getConfig(request.params.id);
    if (!c) throw new HttpError(404, 'Resource not found');
    return c;
  });
  app.post<{ Params: { id: string } }>('/api/config/automation/config/:id', { schema: doc('Create or replace an automation') }, async (request) => {
    const body = request.body;
    if (body === INVALID_JSON) throw bad('Invalid JSON specified.');
    if (!isObject(body)) throw bad('Message malformed: expected a dictionary');
    const problem = await automations.save(request.params.id, body);
    if (problem) throw bad(`Message malformed: ${problem}`);
    return { result: 'ok' };
  });
  app.delete<{ Params: { id: string } }>('/api/config/automation/config/:id', { schema: doc('Delete an automation') }, async (request) => {
    if (!(await automations.remove(request.params.id))) throw new HttpError(404, 'Resource not found');
    return { result: 'ok' };
  });
}

/** The start of today in the home's time zone, in microseconds (the logbook's default start). */
function startOfToday(home: Home): number {
  const now = new Date(home.clock.ms());
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: home.location.time_zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const sinceMidnightMs = ((get('hour') * 60 + get('minute')) * 60 + get('second')) * 1000 + now.getUTCMilliseconds();
  return (now.getTime() - sinceMidnightMs) * 1000;
}
