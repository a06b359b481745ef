// What the home and workflow pages share. How a console form answers: htmx asked for a
// fragment to swap in (the HX-Request header), a plain browser form gets a redirect back to the
// page it came from (so it works without script), and a refused write is a 4xx either way with
// the reason shown where it happened. And one way to show a time.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ServiceClient, ServiceResponse } from './console-client.js';

export const isHtmx = (request: FastifyRequest): boolean => request.headers['hx-request'] === 'true';

export const sendHtml = (reply: FastifyReply, body: string, status = 200) =>
  reply.code(status).type('text/html; charset=utf-8').send(body);

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

/**
 * A call to a service's API that answers 503 with the reason, rather than throwing, when the
 * service runs nowhere this console knows (a console started with --services that leave it out).
 */
export async function callService<T>(
  client: ServiceClient,
  service: string,
  path: string,
  init: { method?: string; body?: unknown } = {},
): Promise<ServiceResponse<T>> {
  if (!client.baseUrl(service))
    return { status: 503, body: { message: `The ${service} service does not run here.` } as T, headers: new Headers() };
  return client.request<T>(service, path, init);
}

/** The status to answer with for a service's refusal: its own 4xx or 503, else 502 (it failed, not us). */
export const relayStatus = (status: number): number => (status >= 500 && status !== 503 ? 502 : status);
