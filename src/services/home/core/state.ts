// HA's state object. Immutable: every write makes a new one, so the JSON of a state is
// computed at most once and shared by every REST answer, WS event and subscriber.
import type { Context } from './context.js';
import { isoUs, parseIsoUs } from './time.js';

export type Attributes = Record<string, unknown>;

export class State {
  private cachedJson?: string;

  constructor(
    readonly entity_id: string,
    readonly state: string,
    readonly attributes: Readonly<Attributes>,
    /** Microseconds since the epoch. */
    readonly lastChangedUs: number,
    readonly lastUpdatedUs: number,
    readonly lastReportedUs: number,
    readonly context: Readonly<Context>,
  ) {}

  get domain(): string {
    return this.entity_id.slice(0, this.entity_id.indexOf('.'));
  }

  get name(): string {
    const n = this.attributes.friendly_name;
    return typeof n === 'string' ? n : this.entity_id.slice(this.entity_id.indexOf('.') + 1).replace(/_/g, ' ');
  }

  /** HA's key order. */
  toJSON() {
    return {
      entity_id: this.entity_id,
      state: this.state,
      attributes: this.attributes,
      last_changed: isoUs(this.lastChangedUs),
      last_reported: isoUs(this.lastReportedUs),
      last_updated: isoUs(this.lastUpdatedUs),
      context: this.context,
    };
  }

  json(): string {
    return (this.cachedJson ??= JSON.stringify(this.toJSON()));
  }
}

/** A state back from the JSON it was stored as (State.json()), or undefined when it does not parse. */
export function stateFromJson(json: string): State | undefined {
  try {
    return stateFromObject(JSON.parse(json));
  } catch {
    return undefined;
  }
}

/** A state back from its JSON shape (toJSON()), once parsed; undefined when it is not one. */
export function stateFromObject(o: Record<string, unknown> | null | undefined): State | undefined {
  if (!o || typeof o.entity_id !== 'string' || typeof o.state !== 'string') return undefined;
  const us = (t: unknown) => (typeof t === 'string' ? parseIsoUs(t) : undefined) ?? 0;
  const attributes = (o.attributes ?? {}) as Attributes;
  return new State(
    o.entity_id,
    o.state,
    Object.freeze(attributes),
    us(o.last_changed),
    us(o.last_updated),
    us(o.last_reported ?? o.last_updated),
    o.context as Context,
  );
}

/** Structural equality for attribute values (key order does not matter, as in Python dicts). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => deepEqual(v, bb[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) =>
      Object.prototype.hasOwnProperty.call(b, k) &&
      deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

const ENTITY_ID_RE = /^(?!.+__)(?!_)[\da-z_]+(?<!_)\.(?!_)[\da-z_]+(?<!_)$/;
export const isValidEntityId = (id: string): boolean => ENTITY_ID_RE.test(id);

/** HA's slugify, enough for names like "Living Room" -> "living_room". */
export function slugify(text: string): string {
  const s = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return s || 'unnamed';
}
