// Service-data fields: each parses and validates one value with HA-validator wording
// ("brightness: value must be at most 255") and describes itself for `get_services`.
// Out-of-range values are rejected, never clamped (project ruling §1.2).
import { invalid } from './errors.js';

export interface Field<T = unknown> {
  parse(value: unknown, name: string): T;
  selector: Record<string, unknown>;
  required?: boolean;
  description?: string;
}

const isNumeric = (v: unknown): v is number | string =>
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));

function inRange(n: number, name: string, min?: number, max?: number) {
  if (min !== undefined && n < min) throw invalid(name, `value must be at least ${min}`);
  if (max !== undefined && n > max) throw invalid(name, `value must be at most ${max}`);
  return n;
}

export const int = (opts: { min?: number; max?: number } = {}): Field<number> => ({
  selector: {
    number: {
      ...(opts.min !== undefined ? { min: opts.min } : {}),
      ...(opts.max !== undefined ? { max: opts.max } : {}),
      mode: 'slider',
    },
  },
  parse(v, name) {
    // HA coerces numeric strings ("128"); a fraction is not an int here (no silent truncation).
    if (!isNumeric(v) || !Number.isInteger(Number(v))) throw invalid(name, 'expected int');
    return inRange(Number(v), name, opts.min, opts.max);
  },
});

export const float = (opts: { min?: number; max?: number; step?: number } = {}): Field<number> => ({
  selector: {
    number: {
      ...(opts.min !== undefined ? { min: opts.min } : {}),
      ...(opts.max !== undefined ? { max: opts.max } : {}),
      step: opts.step ?? 0.1,
      mode: 'box',
    },
  },
  parse(v, name) {
    if (!isNumeric(v)) throw invalid(name, 'expected float');
    return inRange(Number(v), name, opts.min, opts.max);
  },
});

export const str = (opts: { max?: number } = {}): Field<string> => ({
  selector: { text: null },
  parse(v, name) {
    if (typeof v === 'number' || typeof v === 'boolean') v = String(v);
    if (typeof v !== 'string') throw invalid(name, 'expected str');
    if (opts.max !== undefined && v.length > opts.max)
      throw invalid(name, `length of value must be at most ${opts.max}`);
    return v;
  },
});

export const oneOf = <T extends string>(values: readonly T[]): Field<T> => ({
  selector: { select: { options: [...values] } },
  parse(v, name) {
    if (typeof v !== 'string' || !values.includes(v as T))
      throw invalid(name, `value must be one of [${values.map((x) => `'${x}'`).join(', ')}]`);
    return v as T;
  },
});

export const bool = (): Field<boolean> => ({
  selector: { boolean: null },
  parse(v, name) {
    if (typeof v === 'boolean') return v;
    if (v === 1 || v === 'true' || v === 'on' || v === 'yes' || v === '1') return true;
    if (v === 0 || v === 'false' || v === 'off' || v === 'no' || v === '0') return false;
    throw invalid(name, 'expected boolean');
  },
});

export const tuple = (item: Field<number>, length: number): Field<number[]> => ({
  selector: { object: null },
  parse(v, name) {
    if (!Array.isArray(v)) throw invalid(name, 'expected list');
    if (v.length !== length) throw invalid(name, `length of value must be exactly ${length}`);
    return v.map((x) => item.parse(x, name));
  },
});

export const list = <T>(item: Field<T>): Field<T[]> => ({
  selector: { object: null },
  parse(v, name) {
    const arr = Array.isArray(v) ? v : [v];
    return arr.map((x) => item.parse(x, name));
  },
});

export const object = (): Field<Record<string, unknown>> => ({
  selector: { object: null },
  parse(v, name) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw invalid(name, 'expected dict');
    return v as Record<string, unknown>;
  },
});

export const any = (): Field<unknown> => ({ selector: { object: null }, parse: (v) => v });

export const required = <T>(field: Field<T>): Field<T> => ({ ...field, required: true });

export type Fields = Record<string, Field>;

/** Validates service data against fields; unknown keys are rejected as HA's schemas do. */
export function parseFields(fields: Fields, data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    if (!(key in fields)) throw invalid(key, 'extra keys not allowed');
  }
  for (const [key, field] of Object.entries(fields)) {
    const v = data[key];
    if (v === undefined || v === null) {
      if (field.required) throw invalid(key, 'required key not provided');
      continue;
    }
    out[key] = field.parse(v, key);
  }
  return out;
}

/** The `fields` object of `get_services`. */
export function describeFields(fields: Fields): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, f]) => [
      k,
      {
        ...(f.required ? { required: true } : {}),
        ...(f.description ? { description: f.description } : {}),
        selector: f.selector,
      },
    ]),
  );
}
