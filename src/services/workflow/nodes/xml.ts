// XML: converts an XML string in a JSON field to JSON (xml2js, with n8n's default options), or
// an item's JSON to an XML string.
import { xml2js } from '../../../platform/optional-modules.js';
import { NodeOperationError, RunFailure, type NodeContext, type NodeType } from '../engine/node-type.js';
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

/**
 * Options as n8n reads them: once, for the first item. An option written as null counts as unset
 * (n8n builds with its default root name), one whose expression gives null does not (oracle: fz-xml-1-9c93b6b5,
 * fz-xml-1-6e474540, fz-xml-1-9c06b762).
 */
async function readOptions(ctx: NodeContext): Promise<Record<string, unknown>> {
  const written = ctx.raw<Record<string, unknown> | null>('options', {}) ?? {};
  const options = (await ctx.param<Record<string, unknown> | null>('options', 0, {})) ?? {};
  return Object.fromEntries(Object.entries(options).filter(([k]) => written[k] !== null));
}

export default {
  types: ['n8n-nodes-base.xml'],
  async execute(ctx) {
    const mode = ctx.raw<string>('mode', 'xmlToJson');
    const property = await ctx.param<string>('dataPropertyName', 0, 'data');
    const options = await readOptions(ctx);
    const out: Item[] = [];
    let nullDocument = false;
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      if (mode === 'xmlToJson') {
        const source = item.json[property];
        if (source === undefined)
          throw new NodeOperationError(`Item has no JSON property called "${property}"`, undefined, i);
        let json: unknown;
        try {
          json = await new (xml2js().Parser)({ ...PARSE_DEFAULTS, ...options }).parseStringPromise(String(source));
        } catch (e) {
          throw new NodeOperationError((e as Error).message, undefined, i);
        }
        // xml2js reads an empty (or blank) document as null; n8n's node passes that on as the
        // item's json, which n8n's engine cannot read once the node is done (below; oracle:
        // fz-xml-1-7a6cdfb3, fz-xml-1-4f327448).
        if (json === null) nullDocument = true;
        out.push({ json: json as Record<string, unknown>, pairedItem: { item: i } });
      } else if (mode === 'jsonToxml') {
        const xml = new (xml2js().Builder)({ ...BUILD_DEFAULTS, ...options }).buildObject(item.json);
        out.push({ json: { [property]: xml }, pairedItem: { item: i } });
      } else throw new NodeOperationError(`The mode "${mode}" is not known!`);
    }
    if (nullDocument) throw new RunFailure("Cannot read properties of null (reading '$error')");
    return [out];
  },
} satisfies NodeType;
