// The home in the console: a dashboard of cards by area, an automations view with their last
// trigger, the logbook, and an entity page with its history graph. Reads come from the console's
// live WebSocket link (home-live.ts), writes go to the home's REST API
// (`POST /api/services/<domain>/<service>`), and GET /home/events streams every state change to
// the browser as server-sent events carrying the entity's re-rendered card.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServicePages, ServicePagesContext } from '../../../platform/console-pages.js';
import { eventStreams, sharedFrames } from '../../../platform/console-event-stream.js';
import { HomeLink, type HassState } from './home-live.js';
import {
  backTo,
  callService,
  field,
  isHtmx,
  relayStatus,
  sendHtml,
  serviceMessage,
} from '../../../platform/console-partial.js';
import { ACTIONS, BadField, cardId, nameOf, renderCard, serviceCall } from './home-cards.js';
import { historySvg, logbookList, type HistoryPoint, type LogbookEntry } from './home-history.js';
import { html, layout, raw } from '../../../platform/console-layout.js';

const ENTITY_ID = /^[a-z0-9_]+\.[a-z0-9_]+$/;
/** Domains whose cards lead the area (what people switch most), the rest after, by name. */
const DOMAIN_ORDER = ['light', 'switch', 'fan', 'climate', 'cover', 'media_player', 'input_boolean', 'scene', 'script'];

export const homePages: ServicePages['register'] = (app, ctx) => {
  const live = new HomeLink(
    () => ctx.client.baseUrl('home'),
    () => ctx.client.keyFor('home'),
    ctx.platform.logger,
  );
  const stream = eventStreams(app, ctx.platform);
  // A change's card is rendered once per session (its forms carry the session's CSRF token), not once per open page.
  const cardFrames = sharedFrames<HassState>();
  app.addHook('preClose', async () => live.close());

  const page = (request: FastifyRequest, reply: FastifyReply, title: string, body: string, status = 200) =>
    sendHtml(
      reply,
      layout({
        title,
        body: `<link rel="stylesheet" href="/static/home-workflow.css"><main>${body}</main>`,
        csrf: request.consoleCsrf,
        nav: request.consoleNav,
        path: request.url.split('?')[0],
        scripts: ['home.js'],
      }),
      status,
    );

  /** The link, ready; or a page saying why the home cannot be shown. */
  async function connected(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    try {
      await live.ready();
      return true;
    } catch (err) {
      page(
        request,
        reply,
        'Home',
        html`<h1>Home</h1><p class="error" role="alert">The home cannot be reached: ${(err as Error).message}</p>`,
        503,
      );
      return false;
    }
  }

  app.get('/home', { schema: { hide: true } }, async (request, reply) => {
    if (!(await connected(request, reply))) return;
    const csrf = request.consoleCsrf ?? '';
    const sections = groupByArea(live).map(
      (
        g,
      ) => html`<section class="area" aria-labelledby="area-${g.id}"><h2 id="area-${g.id}">${g.name}${g.floor ? raw(html` <span class="muted floor">${g.floor}</span>`) : ''}</h2>
<div class="cards">${g.states.map((s) => raw(renderCard(s, { csrf, back: '/home' })))}</div></section>`,
    );
    return page(
      request,
      reply,
      'Home',
      html`${raw(homeNav('/home'))}<h1>Home</h1>${raw(liveStatus())}
<p class="muted">${live.states.size} entities in ${sections.length} areas. Cards follow the home as it changes.</p>
<div data-home-live="/home/events">${raw(sections.join('\n'))}</div>`,
    );
  });

  app.get('/home/automations', { schema: { hide: true } }, async (request, reply) => {
    if (!(await connected(request, reply))) return;
    const csrf = request.consoleCsrf ?? '';
    const automations = [...live.states.values()]
      .filter((s) => s.entity_id.startsWith('automation.') || s.entity_id.startsWith('script.'))
      .sort(
        (a, b) =>
          String(b.attributes.last_triggered ?? '').localeCompare(String(a.attributes.last_triggered ?? '')) ||
          nameOf(a).localeCompare(nameOf(b)),
      );
    return page(
      request,
      reply,
      'Automations',
      html`${raw(homeNav('/home/automations'))}<h1>Automations and scripts</h1>${raw(liveStatus())}
<p class="muted">Most recently triggered first.</p>
<div class="cards" data-home-live="/home/events">${automations.map((s) => raw(renderCard(s, { csrf, back: '/home/automations' })))}</div>
${automations.length ? '' : raw('<p class="muted">The home has no automations.</p>')}`,
    );
  });

  app.get('/home/logbook', { schema: { hide: true } }, async (request, reply) => {
    const hours = hoursOf(request);
    // The platform clock's now, included (the API's end is exclusive; a frozen clock stamps changes at exactly now).
    const end = new Date(ctx.platform.clock.ms() + 1);
    const start = new Date(end.getTime() - hours * 3600_000);
    const res = await callService<LogbookEntry[]>(
      ctx.client,
      'home',
      `/api/logbook/${encodeURIComponent(start.toISOString())}?end_time=${encodeURIComponent(end.toISOString())}`,
    );
    if (res.status !== 200)
      return page(
        request,
        reply,
        'Logbook',
        html`<h1>Logbook</h1><p class="error" role="alert">${serviceMessage(res.body, res.status)}</p>`,
        relayStatus(res.status),
      );
    return page(
      request,
      reply,
      'Logbook',
      html`${raw(homeNav('/home/logbook'))}<h1>Logbook</h1>${raw(periodPicker('/home/logbook', hours))}${raw(logbookList(res.body))}`,
    );
  });

  app.get('/home/entities/:entity_id', { schema: { hide: true } }, async (request, reply) => {
    const id = (request.params as { entity_id: string }).entity_id;
    if (!ENTITY_ID.test(id))
      return page(request, reply, 'Not found', html`<h1>No such entity</h1><p>${id} is not an entity id.</p>`, 404);
    if (!(await connected(request, reply))) return;
    const state = live.states.get(id) ?? (await restState(ctx, id));
    if (!state)
      return page(
        request,
        reply,
        'Not found',
        html`<h1>No such entity</h1><p>The home has no ${id}.</p><p><a href="/home">Back to the dashboard</a></p>`,
        404,
      );
    const hours = hoursOf(request);
    // The platform clock's now, included (the API's end is exclusive; a frozen clock stamps changes at exactly now).
    const end = new Date(ctx.platform.clock.ms() + 1);
    const start = new Date(end.getTime() - hours * 3600_000);
    const range = `${encodeURIComponent(start.toISOString())}?end_time=${encodeURIComponent(end.toISOString())}`;
    const [history, logbook] = await Promise.all([
      callService<HistoryPoint[][]>(
        ctx.client,
        'home',
        `/api/history/period/${range}&filter_entity_id=${id}&minimal_response&no_attributes`,
      ),
      callService<LogbookEntry[]>(ctx.client, 'home', `/api/logbook/${range}&entity=${id}`),
    ]);
    const points = history.status === 200 ? (history.body[0] ?? []) : [];
    const name = nameOf(state);
    return page(
      request,
      reply,
      name,
      html`${raw(homeNav(''))}<h1>${name}</h1>${raw(liveStatus())}
<div class="cards single" data-home-live="/home/events">${raw(renderCard(state, { csrf: request.consoleCsrf ?? '', back: `/home/entities/${id}` }))}</div>
<h2>History</h2>${raw(periodPicker(`/home/entities/${id}`, hours))}
${history.status === 200 ? raw(historySvg(id, name, points, start, end)) : raw(html`<p class="error">${serviceMessage(history.body, history.status)}</p>`)}
<h2>Logbook</h2>${logbook.status === 200 ? raw(logbookList(logbook.body)) : raw(html`<p class="error">${serviceMessage(logbook.body, logbook.status)}</p>`)}
<h2>Attributes</h2><pre>${JSON.stringify(state.attributes, null, 2)}</pre>`,
    );
  });

  app.post('/home/entities/:entity_id/:action', { schema: { hide: true } }, async (request, reply) => {
    const { entity_id: id, action: name } = request.params as { entity_id: string; action: string };
    const action = ACTIONS[name];
    if (!ENTITY_ID.test(id) || !action)
      return reply.code(404).send({ message: `No action ${name} for ${id}`, code: 'not_found' });
    const back = backTo(field(request.body, 'back'), '/home', '/home');
    let call: ReturnType<typeof serviceCall>;
    try {
      call = serviceCall(action, id, (n) => field(request.body, n));
    } catch (err) {
      if (!(err instanceof BadField)) throw err;
      return answer(request, reply, id, back, err.message, 400);
    }
    const [domain, service] = call.service.split('.') as [string, string];
    const res = await callService<HassState[]>(ctx.client, 'home', `/api/services/${domain}/${service}`, {
      method: 'POST',
      body: call.data,
    });
    if (res.status >= 400)
      return answer(request, reply, id, back, serviceMessage(res.body, res.status), relayStatus(res.status));
    const changed = Array.isArray(res.body) ? res.body.find((s) => s.entity_id === id) : undefined;
    return answer(request, reply, id, back, undefined, 200, changed);
  });

  /** A card for htmx, a redirect (or an error page) for a plain form. */
  async function answer(
    request: FastifyRequest,
    reply: FastifyReply,
    id: string,
    back: string,
    error: string | undefined,
    status: number,
    known?: HassState,
  ) {
    if (!isHtmx(request)) {
      if (!error) return reply.redirect(`${back}#${cardId(id)}`, 303);
      return page(
        request,
        reply,
        'Not done',
        html`<h1>Not done</h1><p class="error" role="alert">${error}</p><p><a href="${back}">Back</a></p>`,
        status,
      );
    }
    const state = known ?? (await restState(ctx, id)) ?? live.states.get(id);
    if (!state)
      return sendHtml(
        reply,
        html`<p class="error" role="alert">${error ?? `The home has no ${id}.`}</p>`,
        status === 200 ? 404 : status,
      );
    return sendHtml(reply, renderCard(state, { csrf: request.consoleCsrf ?? '', back, error }), status);
  }

  // Server-sent events: `event: state` with {entity_id, state, html} for every change.
  const stateFrame = (entityId: string, state: HassState | null, csrf: string) => {
    const frame = (html: string) =>
      `event: state\ndata: ${JSON.stringify({ entity_id: entityId, state: state?.state ?? null, html })}\n\n`;
    return state ? cardFrames(state, csrf, () => frame(renderCard(state, { csrf, back: '/home' }))) : frame('');
  };
  app.get('/home/events', { schema: { hide: true } }, async (request, reply) => {
    try {
      await live.ready();
    } catch (err) {
      return reply
        .code(503)
        .send({ message: `The home cannot be reached: ${(err as Error).message}`, code: 'unavailable' });
    }
    const only = (request.query as { entity?: string }).entity;
    const csrf = request.consoleCsrf ?? '';
    stream(request, reply, (send) =>
      live.onChange((entityId, state) => {
        if (!only || only === entityId) send(stateFrame(entityId, state, csrf));
      }),
    );
  });
};

async function restState(ctx: ServicePagesContext, id: string): Promise<HassState | undefined> {
  const res = await callService<HassState>(ctx.client, 'home', `/api/states/${id}`);
  return res.status === 200 ? res.body : undefined;
}

interface AreaGroup {
  id: string;
  name: string;
  floor?: string;
  states: HassState[];
}

/** The states by area (an entity's own area, else its device's), areas by floor, the rest last. */
function groupByArea(live: HomeLink): AreaGroup[] {
  const { floors, areas, devices, entities } = live.registries;
  const deviceArea = new Map(devices.map((d) => [d.id, d.area_id]));
  const areaOf = new Map(
    entities.map((e) => [e.entity_id, e.area_id ?? (e.device_id ? deviceArea.get(e.device_id) : null) ?? null]),
  );
  const floorOf = new Map(floors.map((f) => [f.floor_id, f]));
  const groups = new Map<string, AreaGroup>(
    [...areas]
      .sort((a, b) => (floorOf.get(a.floor_id ?? '')?.level ?? 99) - (floorOf.get(b.floor_id ?? '')?.level ?? 99))
      .map((a) => [a.area_id, { id: a.area_id, name: a.name, floor: floorOf.get(a.floor_id ?? '')?.name, states: [] }]),
  );
  const other: AreaGroup = { id: 'no-area', name: 'No area', states: [] };
  for (const s of live.states.values()) (groups.get(areaOf.get(s.entity_id) ?? '') ?? other).states.push(s);
  const rank = (s: HassState) => {
    const i = DOMAIN_ORDER.indexOf(s.entity_id.split('.')[0]);
    return i < 0 ? DOMAIN_ORDER.length : i;
  };
  const all = [...groups.values(), other].filter((g) => g.states.length);
  for (const g of all) g.states.sort((a, b) => rank(a) - rank(b) || nameOf(a).localeCompare(nameOf(b)));
  return all;
}

function hoursOf(request: FastifyRequest): number {
  const h = Number((request.query as { hours?: string }).hours);
  return Number.isInteger(h) && h >= 1 && h <= 240 ? h : 24;
}

const homeNav = (current: string) =>
  html`<nav class="subnav" aria-label="Home views"><ul>${[
    ['/home', 'Dashboard'],
    ['/home/automations', 'Automations'],
    ['/home/logbook', 'Logbook'],
  ].map(([href, label]) =>
    raw(html`<li><a href="${href}"${raw(href === current ? ' aria-current="page"' : '')}>${label}</a></li>`),
  )}</ul></nav>`;

const liveStatus = () =>
  '<p class="live-status muted" role="status" aria-live="polite" data-live-status>Live updates need script.</p>';

const periodPicker = (path: string, hours: number) =>
  html`<form class="period" method="get" action="${path}"><label for="hours">Period</label><span class="row"><select id="hours" name="hours">${[
    1, 6, 24, 72, 168,
  ].map((h) =>
    raw(html`<option value="${h}"${raw(h === hours ? ' selected' : '')}>${h < 24 ? `${h} h` : `${h / 24} d`}</option>`),
  )}</select><button type="submit">Show</button></span></form>`;
