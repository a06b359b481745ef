// The shape limits every JSON value from outside passes: how deep it nests, whether it holds a
// NUL (PostgreSQL text cannot store U+0000), and roughly how large it is once serialized.
//
// Untrusted input is walked with an explicit stack, never by recursion: JSON.parse builds a
// value a million levels deep without complaint, and any recursive walk over it (a NUL check,
// JSON.stringify, a deep compare) overflows the call stack. Checking the shape once, at the
// edge, is what lets the rest of the code recurse over values it received.

export interface JsonShapeLimits {
  /** Most containers (objects and arrays) on any path from the root; a scalar has depth 0. */
  maxDepth: number;
  /** Most bytes the value takes as JSON (approximate: string escapes are not counted). */
  maxBytes?: number;
  /** Refuse U+0000 in strings and keys (default true). */
  refuseNul?: boolean;
}

export type JsonShapeProblem =
  | { kind: 'depth'; limit: number; message: string }
  | { kind: 'size'; limit: number; message: string }
  | { kind: 'nul'; message: string };

/** Defaults chosen far above what real clients send: the deepest real payloads nest ~15 levels. */
export const DEFAULT_JSON_MAX_DEPTH = 64;

/** The first limit a value breaks, or undefined when it is within all of them. */
export function jsonShapeProblem(value: unknown, limits: JsonShapeLimits): JsonShapeProblem | undefined {
  const refuseNul = limits.refuseNul !== false;
  const maxBytes = limits.maxBytes ?? Infinity;
  let bytes = 0;
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length) {
    const { value: v, depth } = stack.pop()!;
    if (typeof v === 'string') {
      if (refuseNul && v.includes('\0')) return nul();
      bytes += v.length + 3; // quotes and a separator
    } else if (v !== null && typeof v === 'object') {
      const level = depth + 1;
      if (level > limits.maxDepth)
        return { kind: 'depth', limit: limits.maxDepth, message: `nested deeper than ${limits.maxDepth} levels` };
      bytes += 2;
      if (Array.isArray(v)) {
        for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth: level });
      } else {
        for (const key of Object.keys(v)) {
          if (refuseNul && key.includes('\0')) return nul();
          bytes += key.length + 3;
          stack.push({ value: (v as Record<string, unknown>)[key], depth: level });
        }
      }
    } else {
      bytes += v === undefined ? 0 : String(v).length + 1;
    }
    // Checked as we go, so a huge (or, from internal callers, cyclic) value stops early.
    if (bytes > maxBytes) return { kind: 'size', limit: maxBytes, message: `larger than ${maxBytes} bytes` };
  }
  return undefined;
}

function nul(): JsonShapeProblem {
  return { kind: 'nul', message: 'contains a NUL character (\\u0000), which is not allowed' };
}
