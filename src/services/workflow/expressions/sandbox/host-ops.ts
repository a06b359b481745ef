// The host's answers to the sandbox's one host function, `__hamletHost(op, …)`. Arguments
// arrive as strings and numbers; answers leave as JSON text (or a number, or undefined).
// These are the only things code in the sandbox can ask of the server: the current run's
// data (read through host-data.ts, as the fast path reads it), Intl formatting, URL parsing,
// hashing/base64, the clock and the libraries it may load.
//
// The sandbox lives in a worker thread while the run's data (ExpressionData, with its
// functions) stays in the main thread. So the operations split in two: those the worker
// answers itself (clock, libraries, URL, codecs, Intl, nested evaluation) and the data
// operations, which the run forwards to wherever its data is (`RunHost.data`) and which
// `answerDataOperation` answers there.

import { ExpressionError, type ExpressionData } from '../api.js';
import { hostCodec } from './codec.js';
import { inputItem, itemForSandbox, legacyNodeItem, nodeItem, nodeItems, nodeMustExist } from '../host-data.js';
import { intlCall } from './intl.js';
import { hostParseUrl } from './web.js';

export type HostArgs = Array<string | number | undefined>;

/**
 * One run as the sandbox sees it: created by whoever starts the run, handed to
 * `Sandbox.begin`, dropped at `end`. Everything a run reads goes through its own RunHost,
 * so no run can be answered with another run's data.
 */
export interface RunHost {
  /** A data operation (see DATA_OPERATIONS), answered from the run's data: JSON text, undefined or '!'+error. */
  data(op: string, args: HostArgs): string | undefined;
  /** The run's time zone, already checked (host-data.ts timezoneOf). */
  readonly timezone: string;
  /** $evaluateExpression: evaluates a template for the item `itemIndex` of the same run. */
  evaluate(expression: string, itemIndex: number): unknown;
}

export interface HostContext {
  /** The run in progress, if any. */
  run(): RunHost | undefined;
  /** Milliseconds the run has taken (library loading excluded). */
  elapsedMs(): number;
  loadLibrary(name: string): void;
}

export type HostArg = (index: number) => string | number | undefined;

export function hostOperation(op: string, arg: HostArg, host: HostContext): string | number | undefined {
  const text = (i: number) => {
    const value = arg(i);
    return value === undefined ? undefined : String(value);
  };
  switch (op) {
    case 'elapsed':
      return host.elapsedMs();
    case 'loadLibrary':
      host.loadLibrary(String(arg(1)));
      return undefined;
    case 'url':
      return hostParseUrl(String(arg(1)), text(2));
    case 'codec':
      return JSON.stringify(hostCodec(String(arg(1)), String(arg(2)), text(3)));
  }
  const run = host.run();
  if (!run) throw new ExpressionError('No run in progress');
  switch (op) {
    case 'intl':
      return intlCall(String(arg(1)), String(arg(2)), String(arg(3)), arg(4) as string | undefined, run.timezone);
    case 'evaluate': {
      const expression = String(arg(1));
      // Wrapped so that undefined survives the trip.
      return JSON.stringify({
        v: run.evaluate(expression.startsWith('=') ? expression : `=${expression}`, Number(arg(2))),
      });
    }
  }
  if (!DATA_OPERATIONS.has(op)) throw new ExpressionError(`Unknown host operation ${op}`);
  return run.data(op, [arg(1), arg(2), arg(3)]);
}

/** Operations that read the run's ExpressionData. */
const DATA_OPERATIONS = new Set([
  'inputCount',
  'inputItem',
  'nodeExists',
  'nodeAll',
  'nodePaired',
  'nodeLegacy',
  'nodeContext',
  'nodeExecuted',
  'nodeParams',
  'context',
  'env',
  'vars',
  'staticData',
]);

/** Answers a data operation where the data is; errors are encoded for the guest, never thrown. */
export function answerDataOperation(op: string, args: HostArgs, data: ExpressionData): string | undefined {
  try {
    if (!DATA_OPERATIONS.has(op)) throw new ExpressionError(`Unknown host operation ${op}`);
    return dataOperation(op, args, data);
  } catch (error) {
    return encodeHostError(error);
  }
}

/** How a failed host operation reaches the guest: '!' and the error as JSON (the prelude rethrows it). */
export function encodeHostError(error: unknown): string {
  const kind =
    error instanceof ExpressionError ? 'ExpressionError' : error instanceof RangeError ? 'RangeError' : 'TypeError';
  return (
    '!' +
    JSON.stringify({
      kind,
      message: error instanceof Error ? error.message : String(error),
      description: error instanceof ExpressionError ? error.description : undefined,
    })
  );
}

function dataOperation(op: string, args: HostArgs, data: ExpressionData): string | undefined {
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  const name = String(args[0] ?? '');
  switch (op) {
    case 'inputCount':
      return JSON.stringify(data.inputItems.length);
    case 'inputItem':
      return json(itemForSandbox(inputItem(data, 'index', Number(args[0]))));
    case 'nodeExists':
      nodeMustExist(data, name);
      return undefined;
    case 'nodeAll': {
      const run = Number(args[2]);
      const branch = Number(args[1]);
      return json(
        nodeItems(data, name, branch < 0 ? undefined : branch, run < 0 ? undefined : run).map(itemForSandbox),
      );
    }
    case 'nodePaired':
      return json(itemForSandbox(nodeItem(data, name, 'paired', Number(args[1]))));
    case 'nodeLegacy':
      return json(itemForSandbox(legacyNodeItem(data, name, Number(args[1]))));
    case 'nodeContext':
      return json(data.nodeContext?.(name === '' ? data.nodeName : name) ?? {});
    case 'nodeExecuted':
      return JSON.stringify(data.nodeExecuted(name));
    case 'nodeParams':
      return json(data.nodeParameters(name === '' ? data.nodeName : name) ?? {});
    case 'context':
      return JSON.stringify({
        workflow: data.workflow,
        execution: { customData: {}, ...data.execution },
        prevNode: data.prevNode,
        additionalKeys: data.additionalKeys ?? {},
      });
    case 'env':
      // null: blocked (no variable allowed), which $env reports as n8n does.
      return Object.keys(data.env).length === 0 ? 'null' : JSON.stringify(data.env);
    case 'vars':
      return JSON.stringify(data.vars ?? {});
    case 'staticData':
      return json(name === 'node' ? data.staticData?.node : data.staticData?.global);
    default:
      throw new ExpressionError(`Unknown host operation ${op}`);
  }
}
