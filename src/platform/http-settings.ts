// The HTTP edge's settings and their defaults, apart from http.ts so that the configuration
// (config.ts), which every command reads, loads neither Fastify nor Ajv.
import type { TrustProxySetting } from './client-address.js';
import { DEFAULT_JSON_MAX_DEPTH } from './json-limits.js';

/** The HTTP edge every service shares, one set for the process. */
export interface HttpSettings {
  /** HAMLET_TRUST_PROXY (alias COMMUNITY_TRUST_PROXY): proxies whose X-Forwarded-For entries are believed. */
  trustProxy?: TrustProxySetting;
  /** A request's headers must arrive within this (slow-header clients are cut off). */
  headersTimeoutMs: number;
  /** The whole request, body included, must arrive within this. */
  requestTimeoutMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveTimeoutMs: number;
  /** Open connections per listening port; more are closed as they arrive. */
  maxConnections: number;
  /** Deepest JSON body (and home WebSocket message) accepted, in nested objects/arrays. */
  jsonMaxDepth: number;
  /** HAMLET_HTTP_EAGER_SCHEMAS: compile every route's validators and serializers at start, not on first use. */
  eagerSchemas?: boolean;
}

export const HTTP_DEFAULTS: HttpSettings = {
  headersTimeoutMs: 20_000,
  requestTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
  jsonMaxDepth: DEFAULT_JSON_MAX_DEPTH,
};
