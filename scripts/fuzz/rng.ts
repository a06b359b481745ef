// A small seeded random source (mulberry32), so the same seed always yields the same cases.
export class Rng {
  private state: number;

  constructor(seed: number | string) {
    this.state = typeof seed === 'number' ? seed >>> 0 : hashString(seed);
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.next() * list.length)];
  }

  /** A random subset (order kept), of at least `min` elements when the list has them. */
  subset<T>(list: readonly T[], p = 0.5, min = 0): T[] {
    const out = list.filter(() => this.chance(p));
    while (out.length < Math.min(min, list.length)) {
      const extra = this.pick(list);
      if (!out.includes(extra)) out.push(extra);
    }
    return out;
  }

  /** A child source for one case, so case i does not depend on how much randomness case i-1 used. */
  fork(label: string | number): Rng {
    return new Rng(hashString(`${this.state}:${label}`));
  }
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619);
  return h >>> 0;
}
