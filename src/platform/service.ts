// What the platform hands each service, and what a service gives back.
import type { HamletConfig, ServiceName } from '../config.js';
import type { Clock } from './clock.js';
import type { Db, Migrations } from './db.js';
import type { EventBus } from './events.js';
import type { Jobs } from './jobs.js';
import type { Keys } from './keys.js';
import type { Logger } from './logger.js';
import type { Mailer } from './mailer.js';
import type { RateLimits } from './ratelimit.js';
import type { WsBudget } from './ws-budget.js';

export interface Platform {
  config: HamletConfig;
  db: Db;
  clock: Clock;
  events: EventBus;
  jobs: Jobs;
  keys: Keys;
  mailer: Mailer;
  limits: RateLimits;
  logger: Logger;
  /** Connection shares and the memory budget of all WebSocket clients. */
  websockets: WsBudget;
}

export interface RunningService {
  /** Named URLs to print at start, e.g. { api: 'http://127.0.0.1:4000' , smtp: 'smtp://…' }. */
  urls: Record<string, string>;
  stop(): Promise<void>;
}

export interface ServiceDefinition {
  name: ServiceName;
  /** Migrations for the tables this service owns (all prefixed with its name). */
  migrations: Migrations;
  /** Whether `hamlet keys create <service>` issues keys for it (an admin hands them out). */
  adminKeys: boolean;
  start(platform: Platform): Promise<RunningService>;
}
