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

import { ExpressionError, type SandboxLimits } from './api.js';
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
    description?: string,
  ) {
    super(message, undefined, description);
  }
}

/**
 * The error of a run stopped by its time or memory limit (or the stack's), worded as n8n's
 * task runner words its own: a short message, then the limit, the setting and what to try
 * (n8n's description is HTML: `<br/>` between lines).
 */
export function limitError(
  kind: Exclude<LimitKind, 'crash'>,
  limits: Pick<SandboxLimits, 'timeoutMs' | 'memoryBytes'>,
): SandboxLimitError {
  switch (kind) {
    case 'timeout':
      return new SandboxLimitError(
        'timeout',
        `Execution timed out after ${limits.timeoutMs} ms`,
        advice(`The code was still running when its time limit (${limits.timeoutMs} ms) ran out, so it was stopped.`, [
          'Make sure every path through the code ends (no endless loop)',
          'Process fewer items at a time, by batching them with a loop node',
          "Raise the limit with the 'WORKFLOW_SANDBOX_TIMEOUT_MS' environment variable",
        ]),
      );
    case 'memory':
      return new SandboxLimitError(
        'memory',
        'Node ran out of memory',
        advice(
          `The code needed more than the sandbox's memory limit (${Math.round(limits.memoryBytes / 1048576)} MB), so it was stopped. This usually happens when there are too many items to process.`,
          [
            'Process fewer items at a time, by batching them with a loop node',
            "Raise the limit with the 'WORKFLOW_SANDBOX_MEMORY_MB' environment variable",
          ],
        ),
      );
    case 'stack':
      return new SandboxLimitError(
        'stack',
        'Maximum call stack size exceeded',
        'The code nested calls too deeply (endless recursion?).',
      );
  }
}

/** A run that waited for a free sandbox worker for its whole time limit, and never started. */
export function queueTimeoutError(timeoutMs: number, maxWorkers: number): SandboxLimitError {
  return new SandboxLimitError(
    'timeout',
    `Execution timed out after ${timeoutMs} ms`,
    advice(
      `All ${maxWorkers} sandbox workers were busy with other code for the whole time limit (${timeoutMs} ms), so this code never started.`,
      [
        'Make sure the code of your other workflows ends (no endless loop)',
        "Allow more workers with the 'WORKFLOW_SANDBOX_MAX_WORKERS' environment variable",
      ],
    ),
  );
}

function advice(what: string, tries: string[]): string {
  return `${what} You can try the following:<br/><br/>${tries.map((line, i) => `${i + 1}. ${line}`).join('<br/>')}`;
}

const REWRITES: Array<[RegExp, (...groups: string[]) => string]> = [
  [
    /^cannot read property '(.*)' of (undefined|null)$/,
    (key, what) => `Cannot read properties of ${what} (reading '${key}')`,
  ],
  [
    /^cannot set property '(.*)' of (undefined|null)$/,
    (key, what) => `Cannot set properties of ${what} (setting '${key}')`,
  ],
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
  const match =
    new RegExp(`\\(${filename}:(\\d+)(?::\\d+)?\\)`).exec(stack) ?? new RegExp(`${filename}:(\\d+)`).exec(stack);
  return match ? Number(match[1]) : undefined;
}

export function codeError(error: GuestError, filename: string): ExpressionError {
  if (error.name === 'ExpressionError') return new ExpressionError(error.message, undefined, error.description);
  const line = lineOf(error.stack, filename);
  // A thrown string or plain object has no "Name: message" row for n8n to read.
  if (!error.isError) return new ExpressionError('Unknown error');
  const where = line === undefined ? '' : `[line ${line}]`;
  const messageRow = `${error.name}: ${v8Message(error.message)}`.split('\n')[0];
  if (!messageRow.includes('Error:')) return new ExpressionError(`Unknown error ${where}`.trim());
  const [details, type] = messageRow
    .split(':')
    .reverse()
    .map((part) => part.trim());
  const description = type && type !== 'Error' ? type : undefined;
  if (!details) return new ExpressionError(`Unknown error ${where}`.trim(), undefined, description);
  return new ExpressionError(`${details} ${where}`.trim(), undefined, description);
}
