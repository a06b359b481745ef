// multipart/form-data bodies (RFC 7578) read from the bytes the webhook's body parser kept:
// fields and files, in the order sent. The app's body limit has already bounded the size; the
// part count is bounded here, so a body of thousands of tiny parts cannot become thousands of
// binary properties. A body that is not well-formed multipart is refused, never guessed at.

export interface MultipartPart {
  name: string;
  /** Set for a file part (a `filename` in its Content-Disposition, even an empty one). */
  filename?: string;
  contentType?: string;
  data: Buffer;
}

export class MultipartError extends Error {}

/** More parts than this in one request are refused (n8n's form parser has no lower cap than the body size). */
const MAX_MULTIPART_PARTS = 1000;

/** The boundary of a multipart Content-Type, or undefined. */
export function boundaryOf(contentType: string | undefined): string | undefined {
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType ?? '');
  return m ? (m[1] ?? m[2]) : undefined;
}

/** A Content-Disposition parameter, quoted or not; `filename*` (RFC 5987, UTF-8) wins over `filename`. */
function dispositionParam(header: string, name: string): string | undefined {
  const extended = new RegExp(`;\\s*${name}\\*\\s*=\\s*([\\w-]+)'[^']*'([^;]*)`, 'i').exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      /* fall back to the plain parameter */
    }
  }
  const plain = new RegExp(`;\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i').exec(header);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2].trim();
}

function parseHeaders(block: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}

/** The parts of a multipart body. Throws MultipartError on a malformed body or too many parts. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const partEnd = Buffer.from(`\r\n--${boundary}`);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw new MultipartError('the body has no part with the boundary its Content-Type names');
  for (;;) {
    at += delimiter.length;
    // "--" after a delimiter closes the body.
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw new MultipartError('a boundary line does not end with CRLF');
    const headersEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headersEnd < 0) throw new MultipartError('a part has no end to its headers');
    const headers = parseHeaders(body.subarray(at + 2, headersEnd).toString('utf8'));
    const next = body.indexOf(partEnd, headersEnd + 4);
    if (next < 0) throw new MultipartError('the body ends before its closing boundary');
    if (parts.length >= MAX_MULTIPART_PARTS) throw new MultipartError(`more than ${MAX_MULTIPART_PARTS} parts`);
    const disposition = headers['content-disposition'] ?? '';
    const name = dispositionParam(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === undefined)
      throw new MultipartError('a part has no form-data name');
    const filename = dispositionParam(disposition, 'filename');
    parts.push({
      name,
      ...(filename !== undefined ? { filename } : {}),
      ...(headers['content-type'] ? { contentType: headers['content-type'] } : {}),
      data: body.subarray(headersEnd + 4, next),
    });
    at = next + 2;
  }
}
