// Respond to Webhook: answers the webhook call of a `responseNode` workflow; items pass through.
// `binary` answers with a file of the first item, its MIME type as the content type.
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import { binaryBytes } from './binary-data.js';

export default {
  types: ['n8n-nodes-base.respondToWebhook'],
  async execute(ctx) {
    const items = ctx.items;
    const respondWith = ctx.raw<string>(
      'respondWith',
      ctx.typeVersion >= 1.1 ? 'firstIncomingItem' : 'firstIncomingItem',
    );
    const status = Number(await ctx.param('options.responseCode', 0, 200));
    const headers: Record<string, string> = {};
    for (const e of await ctx.param<Array<{ name?: string; value?: unknown }>>(
      'options.responseHeaders.entries',
      0,
      [],
    )) {
      if (e?.name) headers[String(e.name).toLowerCase()] = String(e.value ?? '');
    }
    let body: unknown;
    // `options.responseKey` wraps the item(s) in an object under that key (oracle: respond-1.1-*-key).
    const responseKey = String((await ctx.param('options.responseKey', 0, '')) ?? '');
    const keyed = (data: unknown) => (responseKey ? { [responseKey]: data } : data);
    switch (respondWith) {
      case 'allIncomingItems':
        body = keyed(items.map((i) => i.json));
        break;
      case 'firstIncomingItem':
        body = keyed(items[0]?.json ?? {});
        break;
      case 'json': {
        let b = await ctx.param<unknown>('responseBody', 0, '');
        if (typeof b === 'string') {
          const text = b.trim();
          if (text === '') b = {};
          else {
            try {
              b = JSON.parse(text);
            } catch {
              throw new NodeOperationError("Invalid JSON in 'Response Body' field");
            }
          }
        }
        body = b;
        break;
      }
      case 'text':
        headers['content-type'] ??= 'text/html; charset=utf-8';
        body = String((await ctx.param('responseBody', 0, '')) ?? '');
        break;
      case 'noData':
        body = undefined;
        break;
      case 'binary': {
        // The first item's file: the property named, or its first one ("automatically").
        const first = items[0];
        if (!first?.binary) throw new NodeOperationError('No binary data exists on the first item!');
        const property =
          ctx.raw<string>('responseDataSource', 'automatically') === 'set'
            ? String(await ctx.param('inputFieldName', 0, 'data'))
            : Object.keys(first.binary)[0];
        if (property === undefined) throw new NodeOperationError('No binary data exists on the first item!');
        const { bytes, entry } = binaryBytes(first, property, 0);
        headers['content-type'] ??= entry.mimeType ?? 'application/octet-stream';
        headers['content-length'] = String(bytes.length);
        body = bytes;
        break;
      }
      case 'redirect':
        headers['location'] = String(await ctx.param('redirectURL', 0, ''));
        ctx.respond({ status: status === 200 ? 307 : status, headers, body: undefined });
        return [items];
      default:
        throw new NodeOperationError(`Respond with "${respondWith}" is not supported`);
    }
    ctx.respond({ status, headers, body });
    return [items];
  },
} satisfies NodeType;
