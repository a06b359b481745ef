// The parts of the console, in the order they register: its own pages and admin APIs, then
// each selected service's pages (declared in its ServiceDefinition), in registry order. Adding a
// console view or an admin API is adding one file and one line here; a service's pages live in
// the service's folder.
import type { NavEntry } from '../platform/console-pages.js';
import type { ServiceDefinition } from '../platform/service.js';
import type { ConsoleModule } from './context.js';
import { clockAdmin } from './admin/clock.js';
import { traceAdminApi } from './admin/trace.js';
import { mcpEndpoint } from './mcp/http.js';
import { activityPages } from './pages/activity.js';
import { evalPages } from './pages/evals.js';
import { overviewPages } from './pages/overview.js';
import { worldAdmin } from './admin/world.js';
import { worldKeysAdmin } from './admin/world-keys.js';
import { peopleAdmin } from './people/module.js';
import { worldPages } from './pages/world.js';

/** The console's own pages, before the services'. */
const OWN_PAGES: ConsoleModule[] = [overviewPages, activityPages, worldPages, evalPages];
/** Its admin APIs and the MCP endpoint, after the services' pages. */
const OWN_APIS: ConsoleModule[] = [mcpEndpoint, clockAdmin, traceAdminApi, worldAdmin, worldKeysAdmin, peopleAdmin];

const OWN_NAV: NavEntry[] = [
  { href: '/', label: 'Overview' },
  { href: '/activity', label: 'Activity' },
];
/** After the services' entries: the world (clock, snapshots, diff, seeding), then evaluation runs. */
const OWN_NAV_LAST: NavEntry[] = [
  { href: '/world', label: 'World' },
  { href: '/evals', label: 'Evaluations' },
];

/**
 * Every part to register. Every registered service's pages are served, not only those of the
 * services running here: a page says (503) when its service runs nowhere this process knows.
 */
export function consoleModules(registered: ServiceDefinition[]): ConsoleModule[] {
  const servicePages = registered.flatMap((definition) => (definition.console ? [definition.console] : []));
  return [
    ...OWN_PAGES,
    ...servicePages.map(
      (pages): ConsoleModule =>
        (app, ctx) =>
          pages.register(app, ctx),
    ),
    ...OWN_APIS,
  ];
}

/** The navigation bar: the console's own entries, then each registered service's. */
export function consoleNav(registered: ServiceDefinition[]): NavEntry[] {
  return [
    ...OWN_NAV,
    ...registered.flatMap((definition) => (definition.console?.nav ? [definition.console.nav] : [])),
    ...OWN_NAV_LAST,
  ];
}
