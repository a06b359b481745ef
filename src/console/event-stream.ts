// Server-Sent Events for the console's live pages (mail as it arrives, the activity feed, home
// states, blog and community posts). One place for what every stream needs: the headers that
// keep proxies from buffering, subscribing before the first line (a client that has read it
// misses nothing later), a comment now and then so an idle stream is not closed, and ending
// every open stream when the console closes (or closing would wait for them).
import type { FastifyReply } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { App } from '../platform/http.js';

const PING_MS = 25_000;

/** Subscribes the stream to its source: `write` sends one SSE frame; returns the unsubscribe. */
export type Follow = (write: (frame: string) => void) => () => void;

/** Returns `open(reply, follow)`, which turns a request of `app` into an event stream. */
export function eventStreams(app: App): (reply: FastifyReply, follow: Follow) => void {
  const open = new Set<ServerResponse>();
  app.addHook('preClose', async () => {
    for (const res of open) res.end();
  });
  return (reply, follow) => {
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', 'x-accel-buffering': 'no' });
    const stop = follow((frame) => res.write(frame));
    res.write('retry: 3000\n: connected\n\n');
    open.add(res);
    const ping = setInterval(() => res.write(': ping\n\n'), PING_MS).unref();
    res.on('close', () => {
      stop();
      clearInterval(ping);
      open.delete(res);
    });
  };
}
