// Errors from the sandbox, worded the way n8n words them.
//
// QuickJS and V8 phrase the same failures differently ("cannot read property 'x' of
// undefined" against V8's "Cannot read properties of undefined (reading 'x')"); users and
// the corpus see V8's, so QuickJS's common messages are rewritten.
//
// A Code node's error message is built as n8n 2.8.4 builds it (observed in the corpus): it
// takes the stack's "Name: message" row, splits it on ':' and keeps the LAST part as the
// message and the part before as the description; then appends "[line N]", in per-item mode
// too (observed with the oracle: no item number). So `throw new Error('Invalid data: ' + e.message)`
// on line 5 reports "Client name required. [line 5]".

import { ExpressionError } from './api.js';
import type { GuestError } from './sandbox-pool.js';

/** Why a run was stopped by the sandbox itself rather than by the user's code. */
export type LimitKind = 'timeout' | 'memory' | 'stack' | 'crash';

/**
 * A run stopped by a limit (time, memory, stack) or by the sandbox failing. Defined here, not
 * with the sandboxes, so the main thread can name it without loading QuickJS.
 */
export class SandboxLimitError extends ExpressionError {
  constructor(
    public readonly kind: LimitKind,
    message: string,
  ) {
    super(message);
  }
}

const REWRITES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^cannot read property '(.*)' of (undefined|null)$/, (key, what) => `Cannot read properties of ${what} (reading '${key}')`],
  [/^cannot set property '(.*)' of (undefined|null)$/, (key, what) => `Cannot set properties of ${what} (setting '${key}')`],
  [/^'(.*)' is not defined$/, (name) => `${name} is not defined`],
  [/^'(.*)' is read-only$/, () => 'Assignment to constant variable.'],
  [/^invalid array length$/, () => 'Invalid array length'],
  [/^stack overflow$/, () => 'Maximum call stack size exceeded'],
];

/** QuickJS's wording of a message, in V8's. */
export function v8Message(message: string): string {
  for (const [pattern, rewrite] of REWRITES) {
    const match = pattern.exec(message);
    if (match) return rewrite(...match.slice(1));
  }
  return message;
}

/** The 1-based line of user code an error comes from, read from the QuickJS stack. */
function lineOf(stack: string, filename: string): number | undefined {
  const match = new RegExp(`\\(${filename}:(\\d+)(?::\\d+)?\\)`).exec(stack) ?? new RegExp(`${filename}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}

export function codeError(error: GuestError, filename: string): ExpressionError {
  if (error.name === 'ExpressionError') return new ExpressionError(error.message, undefined, error.description);
  const line = lineOf(error.stack, filename);
  // A thrown string or plain object has no "Name: message" row for n8n to read.
  if (!error.isError) return new ExpressionError('Unknown error');
  const where = line === undefined ? '' : `[line ${line}]`;
  const messageRow = `${error.name}: ${v8Message(error.message)}`.split('\n')[0]!;
  if (!messageRow.includes('Error:')) return new ExpressionError(`Unknown error ${where}`.trim());
  const [details, type] = messageRow
    .split(':')
    .reverse()
    .map((part) => part.trim());
  const description = type && type !== 'Error' ? type : undefined;
  if (!details) return new ExpressionError(`Unknown error ${where}`.trim(), undefined, description);
  return new ExpressionError(`${details} ${where}`.trim(), undefined, description);
}
