// What the home's routes work with, handed over once by the service's composition.
import type { Keys } from '../../../platform/keys.js';
import type { Platform } from '../../../platform/service.js';
import type { Automations } from '../automations/engine.js';
import type { ErrorLog } from '../core/error-log.js';
import type { Home } from '../core/home.js';
import type { Persister } from '../recorder/persister.js';
import type { HomeStore } from '../store/index.js';

export interface HttpDeps {
  home: Home;
  keys: Keys;
  persist: Persister;
  store: HomeStore;
  automations: Automations;
  /** The warnings and errors the home logged (GET /api/error_log). */
  errorLog: ErrorLog;
  /** Checks the house file without applying it: a problem's text, or null when it is valid. */
  checkConfig(): string | null;
  /** The WebSocket side: the platform's connection budget and edge limits, and this home's buffer bound. */
  websocket: { platform: Platform; maxBufferedBytes: number };
}

export const TAGS = ['home'];
