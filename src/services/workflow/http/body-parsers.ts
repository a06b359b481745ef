// Webhooks take any content type. Bodies are parsed strictly by their declared type (the
// lesson of CVE-2026-21858): JSON as JSON, form-urlencoded as flat keys ("auth[domain]"),
// text as a string, anything else as raw bytes (multipart is read from those bytes by the
// webhook route, multipart.ts). Nothing is ever read from disk. The text a parser read is kept
// on the request (RAW_BODY) for the Webhook node's `rawBody` option.
import { HttpError } from '../../../platform/errors.js';
import { jsonOfText, NOT_JSON, type App } from '../../../platform/http.js';
import { RAW_BODY } from './webhook-body.js';

const keepRaw = (req: object, text: string) => void ((req as { [RAW_BODY]?: string })[RAW_BODY] = text);

export function addBodyParsers(app: App): void {
  // The platform's JSON reading (an exact type is matched before its pattern), keeping the text.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    keepRaw(req, body as string);
    const parsed = jsonOfText(body as string);
    if (parsed === NOT_JSON)
      return done(new HttpError(400, 'Request body is not valid JSON', 'invalid_json'), undefined);
    done(null, parsed);
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (req, body, done) => {
    keepRaw(req, body as string);
    const out: Record<string, string | string[]> = {};
    for (const [k, v] of new URLSearchParams(body as string)) {
      const prev = out[k];
      out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
    }
    done(null, out);
  });
  app.addContentTypeParser(/^text\//, { parseAs: 'string' }, (req, body, done) => {
    keepRaw(req, body as string);
    done(null, body);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) =>
    done(null, (body as Buffer).length ? body : undefined),
  );
}
