// What a webhook request's body becomes on the Webhook node's item, as n8n's Webhook node
// makes it: multipart fields in `body` and each file as a binary property (named after its
// field, `[]` dropped, numbered when a field has several files, or `<binaryPropertyName><n>`
// when the node names one); a body no parser reads (v2+) or any body with v1's `binaryData`
// option as one binary property; with `rawBody`, the parsed body plus its bytes as `data`.
import { randomUUID } from 'node:crypto';
import type { WorkflowNode } from '../engine/types.js';
import { toBinary, type BinaryData } from '../binary/meta.js';
import { boundaryOf, MultipartError, parseMultipart } from './multipart.js';

export interface WebhookPayload {
  body: unknown;
  binary?: Record<string, BinaryData>;
}

interface WebhookOptions {
  binaryData?: boolean;
  binaryPropertyName?: string;
  rawBody?: boolean;
}

/** The bytes a body parser kept beside what it parsed (body-parsers.ts), for `rawBody`. */
export const RAW_BODY = Symbol('raw webhook body');

/** A Content-Disposition request header's file name, as n8n reads it for a file sent as the whole body. */
function dispositionFileName(header: string | undefined): string | undefined {
  const m = /filename\*?=(?:UTF-8'[^']*')?"?([^";]+)"?/i.exec(header ?? '');
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

/** A multipart body's fields and files, as n8n 2.8.4's form parser and Webhook node shape them. */
function fromMultipart(bytes: Buffer, boundary: string, options: WebhookOptions): WebhookPayload {
  const fields: Record<string, string | string[]> = {};
  const files = new Map<string, Array<{ filename: string; contentType?: string; data: Buffer }>>();
  for (const part of parseMultipart(bytes, boundary)) {
    // As n8n 2.8.4 reads a form: a part with an empty file name is dropped, and one with a name
    // but no Content-Type is a field (its bytes as text), not a file.
    if (part.filename === '') continue;
    if (part.filename === undefined || part.contentType === undefined) {
      const value = part.data.toString('utf8');
      const prev = fields[part.name];
      fields[part.name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
    } else {
      const list = files.get(part.name) ?? [];
      list.push({ filename: part.filename, contentType: part.contentType, data: part.data });
      files.set(part.name, list);
    }
  }
  const binary: Record<string, BinaryData> = {};
  let count = 0;
  for (const [field, list] of files) {
    list.forEach((file, index) => {
      let name = field.endsWith('[]') ? field.slice(0, -2) : field;
      if (list.length > 1) name += index;
      if (options.binaryPropertyName) name = `${options.binaryPropertyName}${count}`;
      binary[name] = toBinary(file.data, {
        fileName: file.filename || undefined,
        mimeType: file.contentType,
        extensionFrom: 'mimeType',
      });
      count++;
    });
  }
  return { body: fields, ...(count ? { binary } : {}) };
}

export type PayloadRequest = {
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  [RAW_BODY]?: string;
};

/**
 * The body and binary properties of the Webhook node's item for this request. Throws
 * MultipartError for a multipart body that is not well-formed (the route answers 400).
 */
export function webhookPayload(req: PayloadRequest, node: WorkflowNode): WebhookPayload {
  const options = (node.parameters as { options?: WebhookOptions } | undefined)?.options ?? {};
  const contentType = typeof req.headers['content-type'] === 'string' ? req.headers['content-type'] : undefined;
  const mediaType = contentType?.split(';', 1)[0]!.trim().toLowerCase();
  const version = Number(node.typeVersion ?? 1);
  const bytes = Buffer.isBuffer(req.body)
    ? req.body
    : req[RAW_BODY] !== undefined
      ? Buffer.from(req[RAW_BODY], 'utf8')
      : typeof req.body === 'string'
        ? Buffer.from(req.body, 'utf8')
        : undefined;
  const propertyName = options.binaryPropertyName || 'data';
  const wholeBody = (raw: Buffer): WebhookPayload => {
    if (!raw.length) return { body: {} };
    const fileName = dispositionFileName(req.headers['content-disposition'] as string | undefined) ?? randomUUID();
    return {
      body: {},
      binary: {
        [propertyName]: toBinary(raw, {
          fileName,
          mimeType: contentType ?? 'application/octet-stream',
          extensionFrom: 'mimeType',
        }),
      },
    };
  };
  // v1's option: the whole body, whatever its type, is the file.
  if (version < 2 && options.binaryData) return wholeBody(bytes ?? Buffer.alloc(0));
  if (mediaType === 'multipart/form-data') {
    const boundary = boundaryOf(contentType);
    if (!boundary) throw new MultipartError('the Content-Type names no boundary');
    return fromMultipart(bytes ?? Buffer.alloc(0), boundary, options);
  }
  // A body no parser read (it stays bytes): v2+ makes it a file unless the raw body is asked for.
  if (version >= 2 && Buffer.isBuffer(req.body) && !options.rawBody) return wholeBody(req.body);
  const body = req.body === undefined ? {} : Buffer.isBuffer(req.body) ? {} : req.body;
  if (!options.rawBody) return { body };
  const raw = bytes ?? Buffer.alloc(0);
  // n8n sets this binary itself, not through its file helpers: bytes and a MIME type only.
  return {
    body,
    binary: { data: { data: raw.toString('base64'), mimeType: contentType ?? 'application/json' } as BinaryData },
  };
}
