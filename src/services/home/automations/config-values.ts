// Reading an automation's config the way Home Assistant does, in its words: a ConfigProblem
// names the bad key ("required key not provided @ data['entity_id']"). Shared by triggers,
// conditions, actions and templating.ts, so it sits beside them, not inside one of them.

/** Config errors carry HA-like text, e.g. "required key not provided @ data['entity_id']". */
export class ConfigProblem extends Error {}

export const need = (config: Record<string, unknown>, key: string): unknown => {
  if (config[key] === undefined || config[key] === null)
    throw new ConfigProblem(`required key not provided @ data['${key}']`);
  return config[key];
};

export const idList = (value: unknown, key: string): string[] => {
  const list =
    typeof value === 'string' ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value : undefined;
  if (
    !list ||
    list.length === 0 ||
    list.some((x) => typeof x !== 'string' || !/^[a-z0-9_]+\.[a-z0-9_]+$/.test(x.toLowerCase()))
  ) {
    throw new ConfigProblem(
      `Entity ID ${JSON.stringify(value)} is an invalid entity ID for dictionary value @ data['${key}']`,
    );
  }
  return (list as string[]).map((x) => x.toLowerCase());
};

/** HA durations: "HH:MM[:SS]", a number of seconds, or {days, hours, minutes, seconds, milliseconds}. */
export function parseDuration(value: unknown, key: string): number {
  if (typeof value === 'number' && value >= 0) return value * 1000;
  if (typeof value === 'string') {
    const m = /^(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?$/.exec(value.trim());
    if (m) return ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000;
    if (/^\d+(\.\d+)?$/.test(value.trim())) return Number(value) * 1000;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const v = value as Record<string, unknown>;
    const units: Record<string, number> = {
      days: 86_400_000,
      hours: 3_600_000,
      minutes: 60_000,
      seconds: 1000,
      milliseconds: 1,
    };
    let ms = 0;
    for (const [k, n] of Object.entries(v)) {
      if (!(k in units) || typeof n !== 'number' || n < 0)
        throw new ConfigProblem(
          `offset ${JSON.stringify(value)} should be format 'HH:MM', 'HH:MM:SS' or a mapping of days/hours/minutes/seconds for dictionary value @ data['${key}']`,
        );
      ms += n * units[k];
    }
    return ms;
  }
  throw new ConfigProblem(
    `offset ${JSON.stringify(value)} should be format 'HH:MM', 'HH:MM:SS' or a mapping of days/hours/minutes/seconds for dictionary value @ data['${key}']`,
  );
}
