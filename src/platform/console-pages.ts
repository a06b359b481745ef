// What a service declares to show itself in the console: its pages, each registered on the
// console's app with what it needs to reach the service (the platform, and a client that calls
// service APIs with a console-held key), and its entry in the console's navigation. The console
// iterates the selected services' declarations (src/console/modules.ts) and names none.
import type { App } from './http.js';
import type { Platform } from './service.js';
import type { ServiceClient } from './console-client.js';

/** A link in the console's navigation bar. */
export interface NavEntry {
  href: string;
  label: string;
}

/** What a service's pages are handed: the platform, and the client to its own (and others') public APIs. */
export interface ServicePagesContext {
  platform: Platform;
  /** Calls a service's public HTTP API with a console-held key of that service. */
  client: ServiceClient;
}

/** One part of the console a service contributes. */
export interface ServicePages {
  /** The navigation entry of its page, when it has one (in registry order, after Overview and Activity). */
  nav?: NavEntry;
  /** Registers its routes (pages under its own path prefix). */
  register(app: App, ctx: ServicePagesContext): Promise<void> | void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the admin key or session checks out: the CSRF token pages must embed in their forms. */
    consoleCsrf?: string;
    /** The console's navigation bar: its own entries and the selected services'. */
    consoleNav?: NavEntry[];
  }
}
