// GET /mail/events: Server-Sent Events of mail as it arrives, from the platform bus's
// MAIL_RECEIVED (which the mail service publishes after each commit, on every instance through
// Redis in scale-out). `?inbox=` narrows to one inbox. Pages hold it open through console.js
// (data-live) and refresh their lists with htmx on each event.
import type { App } from '../../../platform/http.js';
import { MAIL_RECEIVED } from '../../../platform/topics.js';
import type { ServicePagesContext } from '../../../platform/console-pages.js';
import { eventStreams, sharedFrames } from '../../../platform/console-event-stream.js';

export function registerMailEvents(app: App, ctx: ServicePagesContext): void {
  const stream = eventStreams(app, ctx.platform);
  const frames = sharedFrames<object>();
  app.get('/mail/events', { schema: { hide: true } }, async (request, reply) => {
    const inbox = (request.query as { inbox?: unknown }).inbox;
    const only = typeof inbox === 'string' && inbox ? inbox.toLowerCase() : undefined;
    stream(request, reply, (send) =>
      ctx.platform.events.subscribe(MAIL_RECEIVED, (m) => {
        if (!only || m.inbox_id === only) send(frames(m, '', () => `data: ${JSON.stringify(m)}\n\n`));
      }),
    );
  });
}
