// A template kept rendered (HA's async_track_template_result): it re-renders when a state it
// looked at changes — an entity it read, a domain it iterated, any state if it iterated all —
// and at the start of each minute if it used now(). Changes made by one task (a service call
// that changes several entities) cause one render, right after that task (a microtask, so no
// turn of the event loop is waited for). What it looked at is taken anew from every render, as in HA.
import type { HomeEvent } from '../core/bus.js';
import type { Home } from '../core/home.js';
import { renderTemplate, TemplateError } from './engine.js';
import { parseResult } from './result.js';
import type { RenderInfo } from './states.js';
import { worldOf } from './world.js';

/** HA's `listeners` of a render_template event. */
export interface Listeners {
  all: boolean;
  domains: string[];
  entities: string[];
  time: boolean;
}

export type TrackedResult = { result: unknown; listeners: Listeners } | { error: string };

const listenersOf = (info: RenderInfo): Listeners => ({
  all: info.all,
  domains: [...info.domains].sort(),
  entities: [...info.entities].sort(),
  time: info.time,
});

/** `deliver` also gets the state_changed event that caused a re-render (the last, when several landed together). */
export function trackTemplate(
  home: Home,
  source: string,
  variables: Record<string, unknown>,
  deliver: (r: TrackedResult, cause?: HomeEvent) => void,
): () => void {
  const world = worldOf(home);
  let info: RenderInfo | undefined;
  let pending = false;
  let stopped = false;
  let cancelMinute: (() => void) | undefined;
  let cause: HomeEvent | undefined;

  const render = () => {
    pending = false;
    if (stopped) return;
    const why = cause;
    cause = undefined;
    let r;
    try {
      r = renderTemplate(source, world, variables);
    } catch (err) {
      // A failed render still listens to what it read: `states('x') | float` recovers when x does.
      if (err instanceof TemplateError && err.info) info = err.info;
      if (!(err instanceof TemplateError))
        home.logger.error({ err, template: source }, 'home: template render crashed');
      deliver({ error: err instanceof TemplateError ? err.message : `TemplateError: ${(err as Error).message}` }, why);
    }
    if (r) {
      info = r.info;
      deliver({ result: parseResult(r.text), listeners: listenersOf(r.info) }, why);
    }
    cancelMinute?.();
    cancelMinute = undefined;
    if (info?.time) {
      const next = (Math.floor(home.clock.ms() / 60_000) + 1) * 60_000;
      cancelMinute = home.scheduler.at(next, render);
    }
  };
  const schedule = () => {
    if (pending || stopped) return;
    pending = true;
    queueMicrotask(render);
  };

  const stopListening = home.bus.listen('state_changed', (e) => {
    if (!info) return;
    const id = String(e.data.entity_id);
    if (info.all || info.entities.has(id) || info.domains.has(id.slice(0, id.indexOf('.')))) {
      cause = e;
      schedule();
    }
  });
  render();
  return () => {
    stopped = true;
    stopListening();
    cancelMinute?.();
  };
}
