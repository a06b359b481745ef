// HTML. extractHtmlContent: CSS selectors over an HTML string in a JSON field; one output item
// per input item holding the extracted keys. Text of several matches is joined, as a jQuery-like
// `.text()` does; `returnArray` gives one entry per match. convertToHtmlTable: all items as one
// table (html-table.ts).
import { parse, type HTMLElement } from 'node-html-parser';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { readPath } from './util.js';
import { htmlTable } from './html-table.js';

interface Extraction {
  key: string;
  cssSelector: string;
  returnValue?: 'text' | 'html' | 'attribute' | 'value';
  attribute?: string;
  skipSelectors?: string;
  returnArray?: boolean;
}

function valueOf(el: HTMLElement, e: Extraction): string | undefined {
  switch (e.returnValue ?? 'text') {
    case 'attribute':
      return el.getAttribute(e.attribute ?? '');
    case 'html':
      return el.innerHTML;
    case 'value':
      return el.getAttribute('value');
    default: {
      if (!e.skipSelectors) return el.textContent;
      const copy = parse(el.outerHTML);
      for (const skip of copy.querySelectorAll(e.skipSelectors)) skip.remove();
      return copy.textContent;
    }
  }
}

function tidy(v: string | undefined, trim: boolean, clean: boolean): string | undefined {
  if (typeof v !== 'string') return v;
  let s = v;
  if (clean) s = s.replace(/^\s+|\s+$/g, '').replace(/(\r\n|\n|\r)/gm, '').replace(/\s+/g, ' ');
  if (trim) s = s.trim();
  return s;
}

export default {
  types: ['n8n-nodes-base.html', 'n8n-nodes-base.htmlExtract'],
  async execute(ctx) {
    const operation = ctx.raw<string>('operation', ctx.node.type.endsWith('htmlExtract') ? 'extractHtmlContent' : 'generateHtmlTemplate');
    if (operation === 'convertToHtmlTable') return [[{ json: { table: await htmlTable(ctx) }, pairedItem: ctx.items.map((_, item) => ({ item })) }]];
    if (operation !== 'extractHtmlContent') throw new NodeOperationError(`The operation "${operation}" of the HTML node is not supported`);
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const property = await ctx.param<string>('dataPropertyName', i, 'data');
      const source = readPath(ctx.items[i]!.json, property);
      if (source === undefined) throw new NodeOperationError(`No property named "${property}" exists!`, undefined, i);
      if (typeof source !== 'string') throw new NodeOperationError('cheerio.load() expects a string', undefined, i);
      const root = parse(String(source));
      const trim = await ctx.param<boolean>('options.trimValues', i, true);
      const clean = await ctx.param<boolean>('options.cleanUpText', i, true);
      const json: Record<string, unknown> = {};
      for (const e of await ctx.param<Extraction[]>('extractionValues.values', i, [])) {
        const matches = root.querySelectorAll(e.cssSelector);
        if (e.returnArray) json[e.key] = matches.map((m) => tidy(valueOf(m, e), trim, clean));
        else if ((e.returnValue ?? 'text') === 'text') json[e.key] = tidy(matches.map((m) => valueOf(m, e)).join(''), trim, clean);
        else json[e.key] = matches[0] ? tidy(valueOf(matches[0], e), trim, clean) : undefined;
      }
      out.push({ json, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
