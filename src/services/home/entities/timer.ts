// timer: counts down a duration on the home's clock; idle → active ⇄ paused → idle, firing
// HA's timer.started/restarted/paused/cancelled/finished/changed events. The countdown runs on
// the scheduler, so a manual clock drives it in tests.
import { invalid } from '../core/errors.js';
import type { Field } from '../core/fields.js';
import type { Home } from '../core/home.js';
import type { ServiceContext } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import { isoUs } from '../core/time.js';
import { memory, type DomainModule } from './domain.js';
import { helperAttributes } from './helper.js';

/** HA's cv.time_period: seconds, "HH:MM", "HH:MM:SS" or {hours, minutes, seconds}; in ms. */
function parseDuration(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v) && v >= 0) return v * 1000;
  if (typeof v === 'string') {
    const m = /^(-)?(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(v.trim());
    if (m) return (m[1] ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60 + Number(m[4] ?? 0)) * 1000;
    if (/^\d+(\.\d+)?$/.test(v.trim())) return Number(v) * 1000;
  }
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    const n = (k: string) => (typeof o[k] === 'number' ? o[k] : 0);
    return ((n('days') * 24 + n('hours')) * 3600 + n('minutes') * 60 + n('seconds')) * 1000 + n('milliseconds');
  }
  return undefined;
}

/** Python's str(timedelta) for under a day: "1:00:00", "0:00:30". */
function showDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

const duration = (allowNegative = false): Field<number> => ({
  selector: { duration: {} },
  parse(v, name) {
    const ms = parseDuration(v);
    if (ms === undefined || (!allowNegative && ms < 0))
      throw invalid(name, "offset should be format 'HH:MM', 'HH:MM:SS' or 'HH:MM:SS.F'");
    return ms;
  },
});

interface TimerMemory {
  cancel?: () => void;
  /** Clock ms when an active timer ends. */
  endsAt?: number;
  remainingMs?: number;
}

const mem = (home: Home, id: string) => memory(home, id) as TimerMemory;
const base = (s: State): Attributes => {
  const { finishes_at: _f, remaining: _r, ...rest } = s.attributes;
  return rest;
};
const configured = (s: State) => parseDuration(s.attributes.duration) ?? 0;

function run(s: State, ctx: ServiceContext, ms: number, event: string) {
  const home = ctx.home;
  const m = mem(home, s.entity_id);
  const endsAt = home.clock.ms() + ms;
  return {
    state: 'active',
    attributes: { ...base(s), remaining: showDuration(ms), finishes_at: isoUs(endsAt * 1000) },
    then: () => {
      m.cancel?.();
      m.endsAt = endsAt;
      m.cancel = home.scheduler.at(endsAt, () => expire(home, s.entity_id));
      home.fire(event, { entity_id: s.entity_id }, ctx.context);
    },
  };
}

function stopAt(s: State, ctx: ServiceContext, event: string, extra: Record<string, unknown> = {}) {
  const m = mem(ctx.home, s.entity_id);
  return {
    state: 'idle',
    attributes: base(s),
    then: () => {
      m.cancel?.();
      m.cancel = m.endsAt = m.remainingMs = undefined;
      ctx.home.fire(event, { entity_id: s.entity_id, ...extra }, ctx.context);
    },
  };
}

function expire(home: Home, entityId: string) {
  const s = home.states.get(entityId);
  const m = mem(home, entityId);
  m.cancel = m.endsAt = undefined;
  if (!s || s.state !== 'active') return;
  const context = home.context();
  home.states.set(entityId, 'idle', base(s), context);
  home.fire('timer.finished', { entity_id: entityId, finished_at: isoUs(home.nowUs()) }, context);
}

/**
 * A timer that was active or paused when the server stopped: HA resets it to idle unless the
 * timer has `restore: true`, which resumes the countdown to the stored finishes_at (a timer
 * past due finishes at once) and keeps a paused one paused.
 */
function resumeAfterRestart(home: Home, entityId: string, restore: boolean, attributes: Attributes) {
  const stored = home.states.get(entityId);
  if (!stored || stored.state === 'idle') return;
  const endsAtMs = typeof stored.attributes.finishes_at === 'string' ? Date.parse(stored.attributes.finishes_at) : NaN;
  if (restore && stored.state === 'active' && Number.isFinite(endsAtMs)) {
    const m = mem(home, entityId);
    m.endsAt = endsAtMs;
    m.cancel = home.scheduler.at(endsAtMs, () => expire(home, entityId));
    return;
  }
  if (restore && stored.state === 'paused') {
    mem(home, entityId).remainingMs = parseDuration(stored.attributes.remaining) ?? 0;
    return;
  }
  home.states.set(entityId, 'idle', attributes, home.context());
}

export const timer: DomainModule = {
  domain: 'timer',
  services: [
    {
      service: 'start',
      fields: { duration: duration() },
      plan(s, d, ctx) {
        const m = mem(ctx.home, s.entity_id);
        if (s.state === 'paused' && d.duration === undefined)
          return run(s, ctx, m.remainingMs ?? configured(s), 'timer.started');
        const ms = (d.duration as number | undefined) ?? configured(s);
        const attrs = d.duration !== undefined ? { ...s.attributes, duration: showDuration(ms) } : s.attributes;
        return run(
          { ...s, attributes: attrs } as State,
          ctx,
          ms,
          s.state === 'active' ? 'timer.restarted' : 'timer.started',
        );
      },
    },
    {
      service: 'pause',
      fields: {},
      plan(s, _d, ctx) {
        if (s.state !== 'active') return null;
        const m = mem(ctx.home, s.entity_id);
        const remaining = Math.max(0, (m.endsAt ?? ctx.home.clock.ms()) - ctx.home.clock.ms());
        return {
          state: 'paused',
          attributes: { ...base(s), remaining: showDuration(remaining) },
          then: () => {
            m.cancel?.();
            m.cancel = m.endsAt = undefined;
            m.remainingMs = remaining;
            ctx.home.fire('timer.paused', { entity_id: s.entity_id }, ctx.context);
          },
        };
      },
    },
    {
      service: 'cancel',
      fields: {},
      plan: (s, _d, ctx) => (s.state === 'idle' ? null : stopAt(s, ctx, 'timer.cancelled')),
    },
    {
      service: 'finish',
      fields: {},
      plan: (s, _d, ctx) =>
        s.state === 'idle' ? null : stopAt(s, ctx, 'timer.finished', { finished_at: isoUs(ctx.home.nowUs()) }),
    },
    {
      service: 'change',
      fields: { duration: { ...duration(true), required: true } },
      plan(s, d, ctx) {
        if (s.state !== 'active')
          throw invalid('duration', `Timer ${s.entity_id} is not running, only active timers can be changed`);
        const m = mem(ctx.home, s.entity_id);
        const left = (m.endsAt ?? ctx.home.clock.ms()) - ctx.home.clock.ms() + (d.duration as number);
        if (left < 0) throw invalid('duration', 'Not possible to change timer timer beyond configured duration');
        return run(s, ctx, left, 'timer.changed');
      },
    },
  ],
  setup(device, home) {
    const ms = parseDuration(device.duration ?? 0) ?? 0;
    const attributes = helperAttributes(device, {
      duration: showDuration(ms),
      ...(device.restore === true ? { restore: true } : {}),
    });
    resumeAfterRestart(home, `timer.${device.id}`, device.restore === true, attributes);
    return { state: 'idle', attributes };
  },
};
