// Bodies the blog's write routes accept: JSON, whatever the Content-Type says. Upstream parses
// the body as JSON without looking at the header, and agents' hand-written curl lines often
// leave it out (`curl -d '{…}'` sends application/x-www-form-urlencoded). The platform's parser
// handles declared JSON; this catch-all takes everything else (no header, text/plain, form
// encoding…) and answers 415 only when the body is not JSON at all.
import { HttpError } from '../../../platform/errors.js';
import { jsonOfText, NOT_JSON, type App } from '../../../platform/http.js';

export function acceptUndeclaredJson(app: App): void {
  // Fastify's own text/plain parser would hand the handler a string: JSON sent as text/plain is JSON here too.
  app.removeContentTypeParser('text/plain');
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const parsed = jsonOfText(body as string);
    if (parsed === NOT_JSON)
      return done(
        new HttpError(
          415,
          'The request body must be JSON (send it with Content-Type: application/json).',
          'unsupported_media_type',
        ),
        undefined,
      );
    done(null, parsed);
  });
}
