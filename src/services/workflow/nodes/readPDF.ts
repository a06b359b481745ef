// Read PDF (legacy, v1; hidden in n8n's node list but still run): the PDF on
// `binary[binaryPropertyName]` into json (nodes/pdf.ts), the password used only when `encrypted`
// is on; the item keeps its files.
import type { NodeType } from '../engine/node-type.js';
import { readPdfItem } from './pdf.js';
import { eachItem } from './util.js';

export default {
  types: ['n8n-nodes-base.readPDF'],
  async execute(ctx) {
    return [
      await eachItem(ctx, async (i) => {
        const property = await ctx.param<string>('binaryPropertyName', i, 'data');
        const password =
          (await ctx.param<boolean>('encrypted', i, false)) === true
            ? await ctx.param<string>('password', i, '')
            : undefined;
        const json = await readPdfItem(ctx.items[i], property, { password }, i, ctx.signal);
        return { json, ...(ctx.items[i].binary ? { binary: ctx.items[i].binary } : {}), pairedItem: { item: i } };
      }),
    ];
  },
} satisfies NodeType;
