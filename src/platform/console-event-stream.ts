// Server-Sent Events for the console's live pages (mail as it arrives, the activity feed, home
// states, blog and community posts). One place for what every stream needs: the headers that
// keep proxies from buffering, subscribing before the first line (a client that has read it
// misses nothing later), a comment now and then so an idle stream is not closed, and ending
// every open stream when the console closes (or closing would wait for them).
//
// Every stream is held to the fair shares of the services' WebSockets (platform/ws-budget.ts):
// one address holds at most HAMLET_WS_MAX_PER_ADDRESS streams (429 past that), what is queued
// for a stream and not yet taken by the kernel counts against the process's memory budget
// (HAMLET_WS_MEMORY_BUDGET), which cuts the streams with the most queued first, and a stream
// with more than MAX_QUEUED_BYTES unread is cut by itself. A browser reads what it is sent at
// once, so only a client that does not read is ever cut; the cut is a reset, so the kernel
// drops what it still held for that client too.
//
// Frames leave together every FLUSH_MS, one write per stream (corked: one system call) rather
// than one per frame: with hundreds of streams open, a burst of home changes costs a few
// hundred writes per flush instead of a few hundred per change. People do not see 100 ms.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServerResponse } from 'node:http';
import type { App } from './http.js';
import type { Platform } from './service.js';
import type { BudgetedClient } from './ws-budget.js';

const PING_MS = 25_000;
const FLUSH_MS = 100;
/** Unread bytes one stream may have queued in this process before it is cut: hundreds of home cards. */
const MAX_QUEUED_BYTES = 1024 * 1024;

/** One SSE frame; a Buffer made once (sharedFrames) is queued for every stream without a copy. */
export type Frame = string | Buffer;

/** Subscribes the stream to its source: `send` queues one SSE frame; returns the unsubscribe. */
export type Follow = (send: (frame: Frame) => void) => () => void;

/** Returns `open(request, reply, follow)`, which turns a request of `app` into an event stream. */
export function eventStreams(
  app: App,
  platform: Pick<Platform, 'websockets' | 'logger'>,
): (request: FastifyRequest, reply: FastifyReply, follow: Follow) => void {
  const budget = platform.websockets;
  const open = new Set<ServerResponse>();
  const waiting = new Set<OpenStream>();
  let flushTimer: NodeJS.Timeout | undefined;
  const flushAll = () => {
    flushTimer = undefined;
    for (const stream of waiting) stream.flush();
    waiting.clear();
  };
  app.addHook('preClose', async () => {
    clearTimeout(flushTimer);
    for (const res of open) res.end();
  });

  return (request, reply, follow) => {
    const release = budget.claimAddress('console', request.ip);
    if (!release)
      return void reply.code(429).send({
        message: `Too many live streams from your address (at most ${budget.limits.maxPerAddress}); close other console pages`,
        code: 'rate_limited',
      });
    reply.hijack();
    const res = reply.raw;
    let pending: Frame[] = [];
    let cut = false;
    const stream: OpenStream = {
      queuedBytes: () => res.writableLength,
      cutOff: (reason) => {
        if (cut) return;
        cut = true;
        pending = [];
        platform.logger.warn({ reason, url: request.url }, 'console event stream: closing a slow client');
        if (res.socket) res.socket.resetAndDestroy();
        else res.destroy();
      },
      flush: () => {
        if (cut || res.destroyed || !pending.length) return;
        res.cork();
        for (const frame of pending) res.write(frame);
        res.uncork();
        pending = [];
        if (res.writableLength > MAX_QUEUED_BYTES) stream.cutOff(`more than ${MAX_QUEUED_BYTES} bytes unread`);
        else budget.report(stream);
      },
    };
    const untrack = budget.track(stream);
    const send = (frame: Frame) => {
      if (cut) return;
      pending.push(frame);
      waiting.add(stream);
      flushTimer ??= setTimeout(flushAll, FLUSH_MS).unref();
    };
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
    });
    const stop = follow(send);
    res.write('retry: 3000\n: connected\n\n');
    open.add(res);
    const ping = setInterval(() => send(': ping\n\n'), PING_MS).unref();
    res.on('close', () => {
      stop();
      clearInterval(ping);
      untrack();
      release();
      waiting.delete(stream);
      open.delete(res);
    });
  };
}

interface OpenStream extends BudgetedClient {
  /** Writes the frames sent since the last flush. */
  flush(): void;
}

/**
 * Makes each frame once for all the streams that are sent it: `frame(source, variant, render)`
 * renders the first time a source (an event object) is asked for in a variant (e.g. a
 * session's CSRF token) and hands every later stream the same Buffer. Five hundred subscribers
 * then cost one rendering and one copy in memory, not five hundred.
 */
export function sharedFrames<Source extends object>(): (
  source: Source,
  variant: string,
  render: () => string,
) => Buffer {
  const made = new WeakMap<Source, Map<string, Buffer>>();
  return (source, variant, render) => {
    let variants = made.get(source);
    if (!variants) made.set(source, (variants = new Map()));
    let frame = variants.get(variant);
    if (!frame) variants.set(variant, (frame = Buffer.from(render())));
    return frame;
  };
}
