// What the platform hands each service, and what a service declares about itself.
import type { ServiceCommand } from './cli-command.js';
import type { Clock } from './clock.js';
import type { ServicePages } from './console-pages.js';
import type { Db, Migrations } from './db.js';
import type { Directory } from './directory.js';
import type { EventBus } from './events.js';
import type { Health } from './health.js';
import type { HttpSettings } from './http-settings.js';
import type { Jobs } from './jobs.js';
import type { Keys } from './keys.js';
import type { Leaders } from './leader.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mailer.js';
import type { McpTools } from './mcp-tools.js';
import type { RateLimits } from './ratelimit.js';
import type { SettingsKit } from './settings.js';
import type { Timers } from './timers.js';
import type { Trace } from './trace.js';
import type { WsBudget } from './ws-budget.js';
import type { ServiceWorld, WorldHooks } from './world.js';

/**
 * The platform's settings a service may read; each platform part gets its own slice when it is
 * built (server.ts), and nothing here knows the whole configuration (src/config.ts).
 */
export interface PlatformSettings {
  /** HAMLET_HOST: the address every service listens on. */
  host: string;
  /** HAMLET_DATA_DIR: where files live (the SQLite database, certificates, snapshots, keys of its own). */
  dataDir: string;
  /** HAMLET_ALLOW_INTERNAL_REQUESTS: outbound requests (webhooks, HTTP nodes) may reach internal addresses. */
  allowInternalRequests: boolean;
  /** The HTTP edge every service shares (platform/http.ts). */
  http: HttpSettings;
  /** HAMLET_MCP_ALLOWED_ORIGINS: who may call an MCP endpoint from a browser besides loopback and the public host (mcp-origins.ts). */
  mcpAllowedOrigins: string[];
}

export interface Platform {
  /** The platform's settings services read (not the whole configuration: see PlatformSettings). */
  config: PlatformSettings;
  db: Db;
  clock: Clock;
  /** The clock's timer queue: wait for clock times here, never with setTimeout. */
  timers: Timers;
  events: EventBus;
  jobs: Jobs;
  keys: Keys;
  mailer: Mailer;
  limits: RateLimits;
  logger: Logger;
  /** Connection shares and the memory budget of all WebSocket clients. */
  websockets: WsBudget;
  /** Where each service's HTTP API is reached (for services that call another over HTTP). */
  directory: Directory;
  /** The record of what agents did: API calls, SMTP messages, WebSocket commands, MCP tool calls, domain events. */
  trace: Trace;
  /** Which process of a cluster runs a service's schedules and event reactions (platform/leader.ts). */
  leaders: Leaders;
  /** Readiness for load balancers, answered on every service port (platform/health.ts). */
  health: Health;
  /** Reloads after the console restored or reset the world (see world.ts). */
  world: WorldHooks;
}

/** Every service listens on one HTTP port of its own. */
export interface ServiceSettings {
  port: number;
}

export interface RunningService {
  /** Named URLs to print at start, e.g. { api: 'http://127.0.0.1:4000' , smtp: 'smtp://…' }. */
  urls: Record<string, string>;
  stop(): Promise<void>;
  /**
   * Reads again what it keeps in memory (caches, the house, active triggers) after the world's
   * rows under it were replaced (a restore here or on another instance, a gap in the bus).
   * The server registers it with platform.world while the service runs.
   */
  reload?(): Promise<void>;
  /**
   * Bulk writers for generating worlds (the demo), by name: what the service's API would record
   * one call at a time, written at once. Each checks its input (it is `unknown` here) and throws
   * a RangeError for what it cannot take. Offered through platform.world while the service runs.
   */
  seeds?: Record<string, (input: unknown) => Promise<void>>;
}

/**
 * The part of a service that runs jobs, built by `queues()` in every process that runs them
 * (`hamlet start`, and `hamlet worker` in queue mode). `core` is what the HTTP side shares with
 * the job handlers (stores, senders, the engine), handed to `start()` so one process builds it once.
 */
export interface ServiceJobs<Core> {
  core: Core;
  stop(): Promise<void>;
}

export interface ServiceDefinition<S extends ServiceSettings = any, Core = any> {
  name: string;
  /** Migrations for the tables this service owns (all prefixed with its name). */
  migrations: Migrations;
  /** Whether `hamlet keys create <service>` issues keys for it (an admin hands them out). */
  adminKeys: boolean;
  /** Reads the service's own variables with the shared kit (problems are collected, not thrown). */
  settings(kit: SettingsKit, platform: PlatformSettings): S;
  /** Registers the service's job handlers and builds what they run with. */
  queues(platform: Platform, settings: S): Promise<ServiceJobs<Core>>;
  /** Serves the service (HTTP, SMTP, WebSockets…) with the core its queues built. */
  start(platform: Platform, settings: S, core: Core): Promise<RunningService>;
  /** Its part of the world the console saves and restores (default: every table it owns, all rows). */
  world?: ServiceWorld;
  /** The header its API reads a key from (workflow: n8n's x-n8n-api-key); default `authorization: Bearer <key>`. */
  keyHeader?: string;
  /** Its pages in the console (loaded when the console starts). */
  console?: ServicePages;
  /** Its tools and resources on the Hamlet MCP server. */
  mcp?: McpTools;
  /** Its commands: `hamlet <name> <command>`. */
  cli?: ServiceCommand[];
}

/** A selected service with its settings, read and checked. */
export interface ConfiguredService {
  definition: ServiceDefinition;
  settings: ServiceSettings;
}

/** Declares a service; only the types are checked, so each definition keeps its own settings type. */
export const defineService = <S extends ServiceSettings, Core>(
  definition: ServiceDefinition<S, Core>,
): ServiceDefinition<S, Core> => definition;

/** For services whose jobs need nothing built (no queues of their own). */
export const noJobs = async (): Promise<ServiceJobs<undefined>> => ({ core: undefined, stop: async () => {} });
