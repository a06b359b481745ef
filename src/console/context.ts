// What every part of the console (pages, the admin API, the MCP endpoint) is handed. The
// console reaches services only through their public HTTP APIs (`client`), the platform's
// event bus and each service definition's declared hooks, never through their tables.
import type { ServicePagesContext } from '../platform/console-pages.js';
import type { App } from '../platform/http.js';
import type { ConfiguredService, RunningService } from '../platform/service.js';
import type { ServiceName } from '../services/registry.js';
import type { EvalPageSettings } from './evals/settings.js';
import type { WorldSettings } from './world/settings.js';

/** The console's slice of the configuration (src/config.ts assembles it). */
export interface ConsoleSettings {
  /** HAMLET_CONSOLE_PORT. */
  port: number;
  /** HAMLET_CONSOLE_SESSION_TTL: how long a login lasts. */
  sessionTtlMs: number;
  /** Snapshot limits, diff pages, the scenario folder (HAMLET_WORLD_*, HAMLET_SCENARIO_DIR). */
  world: WorldSettings;
  /** The folder of evaluation runs the /evals pages show (HAMLET_EVAL_RUNS). */
  evals: EvalPageSettings;
}

export interface ConsoleContext extends ServicePagesContext {
  /** The services this process runs (their URLs), by name. */
  running: Partial<Record<ServiceName, RunningService>>;
  /** The selected services' definitions and settings (for their declared hooks). */
  selected: ConfiguredService[];
  settings: ConsoleSettings;
}

/** One part of the console: registers its routes (pages under /, APIs under /admin/api or /api). */
export type ConsoleModule = (app: App, ctx: ConsoleContext) => Promise<void> | void;
