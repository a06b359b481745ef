// Reading a command message: HA's voluptuous-style errors for a missing or mistyped key.
export type Msg = Record<string, unknown> & { id: number; type: string };

/** A command's refusal, sent as HA's {success: false, error: {code, message}}. */
export class CommandError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const formatError = (detail: string) =>
  new CommandError('invalid_format', `Message incorrectly formatted: ${detail}`);

export function expectStr(msg: Msg, key: string, required: boolean): string | undefined {
  const v = msg[key];
  if (v === undefined && !required) return undefined;
  if (v === undefined) throw formatError(`required key not provided @ data['${key}']`);
  if (typeof v !== 'string')
    throw formatError(`expected str for dictionary value @ data['${key}']. Got ${JSON.stringify(v)}`);
  return v;
}

export function expectObj(msg: Msg, key: string): Record<string, unknown> | undefined {
  const v = msg[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v))
    throw formatError(`expected dict for dictionary value @ data['${key}']. Got ${JSON.stringify(v)}`);
  return v as Record<string, unknown>;
}

/** The id of a message, for an error answer, or 0 when it has none usable. */
export function idOf(m: unknown): number {
  const id = (m as { id?: unknown } | null)?.id;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : 0;
}
