// No answer of the console may be shown inside another site's page (clickjacking: a page that
// frames the console and tricks the operator into clicking its buttons). Both headers, for every
// answer: CSP frame-ancestors for browsers that know it, X-Frame-Options for older ones. A page
// with a policy of its own (a mail message's) gets the directive added to it.
import type { App } from '../platform/http.js';

const FRAME_ANCESTORS = "frame-ancestors 'none'";

export function refuseFraming(app: App): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('x-frame-options', 'DENY');
    const policy = reply.getHeader('content-security-policy');
    if (policy === undefined) reply.header('content-security-policy', FRAME_ANCESTORS);
    else if (!/frame-ancestors/.test(String(policy)))
      reply.header('content-security-policy', `${String(policy)}; ${FRAME_ANCESTORS}`);
    return payload;
  });
}
