// Making a process's randomness and time repeatable while a demo world is generated, so the
// same seed gives the same world byte for byte: node:crypto's random sources and Math.random
// draw from a seeded generator, and `Date` reads the generator's clock. Every service id,
// key, token and timestamp goes through these, so no service needs a seed of its own. Only
// for the private, throwaway instance the demo is generated in (src/demo/world-demo.ts):
// the process's own randomness is put back before anything else runs.
import crypto from 'node:crypto';
import { syncBuiltinESMExports } from 'node:module';

/** mulberry32: a small, fast, well-mixed 32-bit generator; enough for names and ids, never for secrets. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Patchable = Record<string, unknown>;

/** Runs `work` with randomness from `seed` and time from `now()`; everything is restored after. */
export async function deterministically<T>(seed: number, now: () => number, work: () => Promise<T>): Promise<T> {
  const next = seededRandom(seed);
  const fill = <B extends ArrayBufferView>(view: B): B => {
    const bytes = new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Math.floor(next() * 256);
    return view;
  };
  const randomBytes = (size: number, callback?: (err: Error | null, buf: Buffer) => void) => {
    const buf = fill(Buffer.alloc(size));
    if (callback) {
      queueMicrotask(() => callback(null, buf));
      return undefined;
    }
    return buf;
  };
  const randomUUID = () => {
    const b = fill(Buffer.alloc(16));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  };
  const randomInt = (min: number, max?: number) => {
    const [lo, hi] = max === undefined ? [0, min] : [min, max];
    return lo + Math.floor(next() * (hi - lo));
  };

  const target = crypto as unknown as Patchable;
  const saved = {
    crypto: { ...pick(target, ['randomBytes', 'randomUUID', 'randomFillSync', 'randomInt', 'pseudoRandomBytes']) },
    random: Math.random,
    Date: globalThis.Date,
  };

  Object.assign(target, { randomBytes, pseudoRandomBytes: randomBytes, randomUUID, randomFillSync: fill, randomInt });
  // Web Crypto (ulid's source) and performance.now (sub-millisecond stamps) are shadowed by
  // own properties on their objects, deleted afterwards to uncover the originals.
  Object.defineProperty(crypto.webcrypto, 'getRandomValues', { value: fill, configurable: true, writable: true });
  Object.defineProperty(performance, 'now', {
    value: () => now() - performance.timeOrigin,
    configurable: true,
    writable: true,
  });
  Math.random = next;
  globalThis.Date = clockDate(saved.Date, now);
  syncBuiltinESMExports();
  try {
    return await work();
  } finally {
    Object.assign(target, saved.crypto);
    delete (crypto.webcrypto as unknown as Patchable).getRandomValues;
    delete (performance as unknown as Patchable).now;
    Math.random = saved.random;
    globalThis.Date = saved.Date;
    syncBuiltinESMExports();
  }
}

function pick(o: Patchable, names: string[]): Patchable {
  return Object.fromEntries(names.map((n) => [n, o[n]]));
}

/** A Date whose "now" (no arguments, Date.now()) is the given clock's. */
function clockDate(Real: DateConstructor, now: () => number): DateConstructor {
  class ClockDate extends Real {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(now());
      else super(...(args as [string]));
    }

    static override now(): number {
      return now();
    }
  }
  return ClockDate as unknown as DateConstructor;
}
