// Execution Data: saves key/value pairs as the execution's custom data (n8n shows them on the
// execution and as $execution.customData); the items pass on unchanged. Values are kept as text.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';

/**
 * Saves pairs as n8n 2.8.4 saves custom data: at most ten keys (more are dropped silently), keys of
 * A-Za-z0-9_ cut to 50 characters, string or number values as text cut to 512. Answers the first
 * refusal's words, if any.
 */
function saveCustomData(custom: Record<string, string>, pairs: Record<string, unknown>): string | undefined {
  let first: string | undefined;
  for (const [key, value] of Object.entries(pairs)) {
    if (!(key in custom) && Object.keys(custom).length >= 10) continue;
    let refusal: string | undefined;
    if (key.replace(/[A-Za-z0-9_]/g, '').length !== 0)
      refusal = `Custom date key can only contain characters "A-Za-z0-9_" (key "${key}")`;
    else if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'bigint')
      refusal = `Custom data values must be a string (key "${key}")`;
    if (refusal) {
      first ??= refusal;
      continue;
    }
    custom[key.slice(0, 50)] = String(value).slice(0, 512);
  }
  return first;
}

export default {
  types: ['n8n-nodes-base.executionData'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', 'save');
    if (operation !== 'save') throw new NodeOperationError(`The operation "${operation}" is not known!`);
    for (let i = 0; i < ctx.items.length; i++) {
      const custom = ctx.expressionData(i).execution.customData;
      if (!custom) break;
      // The pairs as one object (a later key wins); v1.1 saves an empty value as '', v1 as it is.
      const pairs: Record<string, unknown> = {};
      for (const pair of (await ctx.param<Array<{ key?: unknown; value?: unknown }>>('dataToSave.values', i, [])) ??
        []) {
        // An absent key or value is '' (the parameters' default); an expression may still give undefined.
        const key = 'key' in pair ? pair.key : '';
        const value = 'value' in pair ? pair.value : '';
        pairs[String(key)] = value ? value : ctx.typeVersion >= 1.1 ? '' : value;
      }
      const error = saveCustomData(custom, pairs);
      // n8n fails a manual run on the first refused pair (the others are saved); other runs only log it.
      if (error && ctx.mode === 'manual') throw new NodeOperationError(error, undefined, i);
    }
    return [ctx.items.map((item, i) => ({ ...item, pairedItem: { item: i } }))];
  },
} satisfies NodeType;
