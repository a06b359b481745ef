// What the home and workflow pages share. How a console form answers: htmx asked for a
// fragment to swap in (the HX-Request header), a plain browser form gets a redirect back to the
// page it came from (so it works without script), and a refused write is a 4xx either way with
// the reason shown where it happened. And one way to show a time.
import type { FastifyReply, FastifyRequest } from 'fastify';

export const isHtmx = (request: FastifyRequest): boolean => request.headers['hx-request'] === 'true';

export const sendHtml = (reply: FastifyReply, body: string, status = 200) => reply.code(status).type('text/html; charset=utf-8').send(body);

/** A local path to go back to after a plain form post (never another site), else `fallback`. */
export function backTo(value: unknown, prefix: string, fallback: string): string {
  return typeof value === 'string' && value.startsWith(prefix) && !/^\/[/\\]/.test(value) ? value : fallback;
}

/** The text of a field of a parsed form or JSON body. */
export function field(body: unknown, name: string): string | undefined {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/** The message of a service's error answer ({message} or {error}), for showing to a person. */
export function serviceMessage(body: unknown, status: number): string {
  if (body && typeof body === 'object') {
    const b = body as { message?: unknown; error?: unknown };
    if (typeof b.message === 'string') return b.message;
    if (typeof b.error === 'string') return b.error;
  }
  if (typeof body === 'string' && body) return body.slice(0, 300);
  return `the service answered ${status}`;
}

/** 2026-11-26 14:03 UTC: short, unambiguous, the same for every reader. */
export function shortTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}
