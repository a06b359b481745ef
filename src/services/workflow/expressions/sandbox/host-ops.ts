// The host's answers to the sandbox's one host function, `__hamletHost(op, …)`. Arguments
// arrive as strings and numbers; answers leave as JSON text (or a number, or undefined).
// These are the only things code in the sandbox can ask of the server: the current run's
// data (read through host-data.ts, as the fast path reads it), Intl formatting, URL parsing,
// hashing/base64, the clock and the libraries it may load.

import { ExpressionError, type ExpressionData } from '../api.js';
import { hostCodec } from '../extensions/host-helpers.js';
import { inputItem, itemForSandbox, legacyNodeItem, nodeItem, nodeItems, nodeMustExist, timezoneOf } from '../host-data.js';
import { intlCall } from './intl.js';
import { hostParseUrl } from './web.js';

export interface HostContext {
  /** The data of the run in progress, if any. */
  data(): ExpressionData | undefined;
  /** $evaluateExpression: resolves a template against (a view of) the run's data. */
  evaluate(expression: string, data: ExpressionData): unknown;
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
  const data = host.data();
  if (!data) throw new ExpressionError('No run in progress');
  if (op === 'evaluate') {
    const expression = String(arg(1));
    // The same run seen from another item: everything else is read through `data`.
    const view = Object.create(data, { itemIndex: { value: Number(arg(2)) } }) as ExpressionData;
    // Wrapped so that undefined survives the trip.
    return JSON.stringify({ v: host.evaluate(expression.startsWith('=') ? expression : `=${expression}`, view) });
  }
  return dataOperation(op, arg, data);
}

function dataOperation(op: string, arg: HostArg, data: ExpressionData): string | undefined {
  const json = (value: unknown) => (value === undefined ? undefined : JSON.stringify(value));
  const name = String(arg(1) ?? '');
  switch (op) {
    case 'intl':
      return intlCall(String(arg(1)), String(arg(2)), String(arg(3)), arg(4) as string | undefined, timezoneOf(data));
    case 'inputCount':
      return JSON.stringify(data.inputItems.length);
    case 'inputItem':
      return json(itemForSandbox(inputItem(data, 'index', Number(arg(1)))));
    case 'nodeExists':
      nodeMustExist(data, name);
      return undefined;
    case 'nodeAll': {
      const run = Number(arg(3));
      return json(nodeItems(data, name, Number(arg(2)), run < 0 ? undefined : run).map(itemForSandbox));
    }
    case 'nodePaired':
      return json(itemForSandbox(nodeItem(data, name, 'paired', Number(arg(2)))));
    case 'nodeLegacy':
      return json(itemForSandbox(legacyNodeItem(data, name, Number(arg(2)))));
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
      });
    case 'env':
      // null: blocked (no variable allowed), which $env reports as n8n does.
      return Object.keys(data.env).length === 0 ? 'null' : JSON.stringify(data.env);
    case 'staticData':
      return json(name === 'node' ? data.staticData?.node : data.staticData?.global);
    default:
      throw new ExpressionError(`Unknown host operation ${op}`);
  }
}
