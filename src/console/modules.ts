// The parts of the console, in the order they register. Adding a view or an admin API is adding
// one file and one line here.
import type { ConsoleModule } from './context.js';
import { clockAdmin } from './admin/clock.js';
import { traceAdminApi } from './admin/trace.js';
import { mcpEndpoint } from './mcp/http.js';
import { activityPages } from './pages/activity.js';
import { homePages } from './pages/home.js';
import { mailPages } from './pages/mail.js';
import { overviewPages } from './pages/overview.js';
import { worldAdmin } from './admin/world.js';
import { worldKeysAdmin } from './admin/world-keys.js';
import { peopleAdmin } from './people/module.js';
import { socialPages } from './pages/social.js';
import { workflowPages } from './pages/workflow.js';
import { worldPages } from './pages/world.js';

export const CONSOLE_MODULES: ConsoleModule[] = [
  overviewPages,
  activityPages,
  mailPages,
  homePages,
  workflowPages,
  socialPages,
  worldPages,
  mcpEndpoint,
  clockAdmin,
  traceAdminApi,
  worldAdmin,
  worldKeysAdmin,
  peopleAdmin,
];
