// Binary data for nodes: describing new files (binary/meta.ts) and reading an item's file with
// n8n's errors. Hamlet keeps the bytes base64 in memory (n8n's "default" mode); n8n 2.8.4's
// filesystem mode gives an `id` instead of `data`. Unknown extension and file type are null.
import { NodeOperationError } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { describeFile, type BinaryData } from '../binary/meta.js';

export { toBinary, type BinaryData } from '../binary/meta.js';

/** The bytes of an item's binary property; n8n's errors when it is missing. */
export function binaryBytes(
  item: Item,
  property: string,
  itemIndex: number,
): { bytes: Buffer; entry: Partial<BinaryData> } {
  if (!item.binary) throw new NodeOperationError('No binary data exists on item!', undefined, itemIndex);
  const entry = item.binary[property] as Partial<BinaryData> | undefined;
  if (!entry || typeof entry.data !== 'string') {
    throw new NodeOperationError(
      `This operation expects the node's input data to contain a binary file '${property}', but none was found [item ${itemIndex}]`,
      'Make sure that the previous node outputs a binary file',
      itemIndex,
    );
  }
  return { bytes: Buffer.from(entry.data, 'base64'), entry };
}

/**
 * A new file as n8n's prepareBinaryData makes it: type from `mimeType`, else the path's
 * extension, else the bytes' signature; name and folder from the path (keys n8n leaves out
 * when unknown are absent).
 */
export function prepareBinary(bytes: Buffer, filePath?: string, mimeType?: string): BinaryData {
  const meta = describeFile(bytes.subarray(0, 16), bytes.length, filePath || undefined, mimeType || undefined);
  return { data: bytes.toString('base64'), ...meta } as BinaryData;
}
