// Web pages: filled in after the API.
import type { App } from '../../../platform/http.js';
import type { Ctx } from '../context.js';

export function pageRoutes(_app: App, _ctx: Ctx) {}
