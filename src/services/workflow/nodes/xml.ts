// XML: converts an XML string in a JSON field to JSON (xml2js, with n8n's default options), or
// an item's JSON to an XML string.
import { Builder, Parser } from 'xml2js';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

const PARSE_DEFAULTS = {
  attrkey: '$',
  charkey: '_',
  explicitArray: false,
  explicitRoot: true,
  ignoreAttrs: false,
  mergeAttrs: true,
  normalize: false,
  normalizeTags: false,
  trim: false,
};
const BUILD_DEFAULTS = {
  allowSurrogateChars: false,
  attrkey: '$',
  cdata: false,
  charkey: '_',
  headless: false,
  rootName: 'root',
};

export default {
  types: ['n8n-nodes-base.xml'],
  async execute(ctx) {
    const mode = ctx.raw<string>('mode', 'xmlToJson');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      const property = await ctx.param<string>('dataPropertyName', i, 'data');
      const options = (await ctx.param<Record<string, unknown>>('options', i, {})) ?? {};
      if (mode === 'xmlToJson') {
        const source = item.json[property];
        if (source === undefined)
          throw new NodeOperationError(`Item has no JSON property called "${property}"`, undefined, i);
        let json: unknown;
        try {
          json = await new Parser({ ...PARSE_DEFAULTS, ...options }).parseStringPromise(String(source));
        } catch (e) {
          throw new NodeOperationError((e as Error).message, undefined, i);
        }
        out.push({ json: (json ?? {}) as Record<string, unknown>, pairedItem: { item: i } });
      } else if (mode === 'jsonToxml') {
        const xml = new Builder({ ...BUILD_DEFAULTS, ...options }).buildObject(item.json);
        out.push({ json: { [property]: xml }, pairedItem: { item: i } });
      } else throw new NodeOperationError(`The mode "${mode}" is not known!`);
    }
    return [out];
  },
} satisfies NodeType;
