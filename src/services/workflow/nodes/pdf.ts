// PDF text for Extract from File (`pdf`) and the legacy Read PDF node, as n8n 2.8.4 answers:
// `{numpages, numrender, info, metadata?, text, version}`, text per page with lines split where the
// baseline changes, pages joined by a blank line (or one text per page, `joinPages: false`);
// `maxPages` 0 reads no page. pdf.js reads the file on a worker thread (binary/pdf-text.ts); its
// failures ("No password given", "Incorrect Password", "Invalid PDF structure.") and the
// server's limits are the node's error message.
import { NodeOperationError } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';
import { pdfReader, type PdfOptions } from '../binary/pdf-text.js';
import { binaryBytes } from './binary-data.js';

/** The PDF on `binary[property]` of the item, read; a failure as the node's error for that item. */
export async function readPdfItem(
  item: Item,
  property: string,
  options: PdfOptions,
  itemIndex: number,
  signal?: AbortSignal,
): Promise<Record<string, unknown>> {
  // n8n's assertBinaryData wording (other file operations name the missing file differently).
  if (item.binary && !item.binary[property])
    throw new NodeOperationError(
      `The item has no binary field '${property}' [item ${itemIndex}]`,
      'Check that the parameter where you specified the input binary field name is correct, and that it matches a field in the binary input',
      itemIndex,
    );
  const { bytes } = binaryBytes(item, property, itemIndex);
  try {
    return { ...(await pdfReader().read(bytes, options, signal)) };
  } catch (e) {
    throw new NodeOperationError((e as Error).message, undefined, itemIndex);
  }
}
