// Move Binary Data (v1, v1.1; n8n's legacy "Convert to/from binary data"): a file's text into
// json (all of it, parsed as JSON, or under `destinationKey`), or json (all or `sourceKey`) into
// a file. Items without the source are skipped, as n8n does. Text encodings are Node's (utf8,
// utf16le, latin1, ascii, …); a byte order mark is dropped when reading unless `stripBOM` is
// false, and written when `addBOM` asks.
import iconv from 'iconv-lite';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { prepareBinary, type BinaryData } from './binary-data.js';
import { clone, lodashGet, lodashSet, lodashUnset } from './util.js';

interface Options {
  encoding?: string;
  stripBOM?: boolean;
  addBOM?: boolean;
  keepSource?: boolean;
  keepAsBase64?: boolean;
  jsonParse?: boolean;
  dataIsBase64?: boolean;
  useRawData?: boolean;
  fileName?: string;
  mimeType?: string;
}

/** The encoding named, as iconv-lite (which n8n uses) knows it: cp850, windows1255, cesu8 … beside Node's own. */
function encodingOf(name: string | undefined): string {
  const e = name || 'utf8';
  if (!iconv.encodingExists(e)) throw new NodeOperationError(`Encoding not recognized: '${name}'`);
  return e;
}

// Only UTF-8 gets a byte order mark added or dropped (observed: n8n writes UTF-16 without one).
const unicode = (e: string) => /^utf-?8$/i.test(e);

function decode(bytes: Buffer, options: Options): string {
  const encoding = encodingOf(options.encoding);
  return iconv.decode(bytes, encoding, { stripBOM: unicode(encoding) && options.stripBOM !== false });
}

function encode(text: string, options: Options): Buffer {
  const encoding = encodingOf(options.encoding);
  return iconv.encode(text, encoding, { addBOM: unicode(encoding) && options.addBOM === true });
}

function parse(text: string, i: number): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (e) {
    throw new NodeOperationError((e as Error).message, undefined, i);
  }
}

export default {
  types: ['n8n-nodes-base.moveBinaryData'],
  async execute(ctx) {
    const mode = ctx.raw<string>('mode', 'binaryToJson');
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const item = ctx.items[i];
      const options = (await ctx.param<Options>('options', i, {})) ?? {};
      const made: Item = { json: {}, pairedItem: { item: i } };
      if (mode === 'binaryToJson') {
        const sourceKey = await ctx.param<string>('sourceKey', i, 'data');
        const entry = lodashGet(item.binary ?? {}, sourceKey) as BinaryData | undefined;
        if (entry === undefined) continue;
        const bytes = Buffer.from(String(entry.data ?? ''), 'base64');
        if (await ctx.param<boolean>('setAllData', i, true)) made.json = parse(decode(bytes, options), i);
        else {
          made.json = clone(item.json);
          let value: unknown = options.keepAsBase64 === true ? bytes.toString('base64') : decode(bytes, options);
          if (options.jsonParse) value = parse(value as string, i);
          lodashSet(made.json, await ctx.param<string>('destinationKey', i, 'data'), value);
        }
        made.binary = options.keepSource === true ? item.binary : clone(item.binary);
        if (options.keepSource !== true && made.binary) lodashUnset(made.binary, sourceKey);
      } else if (mode === 'jsonToBinary') {
        const all = await ctx.param<boolean>('convertAllData', i, true);
        const destinationKey = await ctx.param<string>('destinationKey', i, 'data');
        const sourceKey = all ? '' : await ctx.param<string>('sourceKey', i, 'data');
        let value: unknown = all ? item.json : lodashGet(item.json, sourceKey);
        if (value === undefined) continue;
        made.binary = item.binary ? clone(item.binary) : {};
        let mimeType = options.mimeType;
        let bytes: Buffer;
        if (options.dataIsBase64 !== true) {
          if (options.useRawData !== true || typeof value === 'object') {
            value = JSON.stringify(value);
            mimeType ||= 'application/json';
          }
          bytes = encode(String(value), options);
        } else bytes = fromBase64(value, i);
        if (!mimeType && ctx.typeVersion === 1) mimeType = 'application/json';
        const file = prepareBinary(bytes, options.fileName, mimeType);
        // v1.1 names an unnamed file "file" plus its extension.
        if (!file.fileName && ctx.typeVersion > 1)
          file.fileName = `file${file.fileExtension ? `.${file.fileExtension}` : ''}`;
        lodashSet(made.binary, destinationKey, file);
        if (options.keepSource === true) made.json = item.json;
        else if (!all) {
          made.json = clone(item.json);
          lodashUnset(made.json, sourceKey);
        }
      } else throw new NodeOperationError(`The operation "${mode}" is not known!`, undefined, i);
      out.push(made);
    }
    return [out];
  },
} satisfies NodeType;

/**
 * A value said to be base64, as n8n reads it: handed to Buffer.from as it is, so text is
 * decoded, an array's numbers are bytes, and anything else fails with Node's own message
 * ("The first argument must be of type string or … Received type number (3)").
 */
function fromBase64(value: unknown, itemIndex: number): Buffer {
  try {
    return Buffer.from(value as string, 'base64');
  } catch (err) {
    throw new NodeOperationError((err as Error).message, undefined, itemIndex);
  }
}
