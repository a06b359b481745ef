// GET /mail/events: Server-Sent Events of mail as it arrives, from the platform bus's
// MAIL_RECEIVED (which the mail service publishes after each commit, on every instance through
// Redis in scale-out). `?inbox=` narrows to one inbox. Pages hold it open through console.js
// (data-live) and refresh their lists with htmx on each event.
import type { ServerResponse } from 'node:http';
import type { App } from '../../platform/http.js';
import { MAIL_RECEIVED } from '../../platform/topics.js';
import type { ConsoleContext } from '../context.js';

/** A comment line now and then keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;

export function registerMailEvents(app: App, ctx: ConsoleContext): void {
  const open = new Set<ServerResponse>();
  // Open streams never end by themselves: closing the console ends them, or close would wait.
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });

  app.get('/mail/events', { schema: { hide: true } }, async (request, reply) => {
    const inbox = (request.query as { inbox?: unknown }).inbox;
    const only = typeof inbox === 'string' && inbox ? inbox.toLowerCase() : undefined;
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    const off = ctx.platform.events.subscribe(MAIL_RECEIVED, (m) => {
      if (!only || m.inbox_id === only) res.write(`data: ${JSON.stringify(m)}\n\n`);
    });
    // Written once subscribed: a client that has read it misses no later message.
    res.write('retry: 3000\n: listening\n\n');
    open.add(res);
    const heartbeat = setInterval(() => res.write(': ping\n\n'), HEARTBEAT_MS);
    heartbeat.unref();
    res.on('close', () => {
      off();
      clearInterval(heartbeat);
      open.delete(res);
    });
  });
}
