// The home service, declared: everything Hamlet knows about it (settings, tables, console page,
// MCP tools). Its running part (run.ts) is loaded only when it starts, so commands that only
// read declarations stay fast. docs/adding-a-service.md lists what a declaration holds.
import { defineService, noJobs } from '../../platform/service.js';
import { homeTools } from './mcp-tools.js';
import { migrations } from './migrations.js';
import { describeHomeChange } from './store/describe-changes.js';
import { readHomeSettings } from './settings.js';

export default defineService({
  name: 'home',
  migrations,
  adminKeys: true,
  settings: readHomeSettings,
  queues: noJobs,
  // The semantic diff's sentences for this service's rows (docs/evaluations.md).
  world: { describe: describeHomeChange },
  start: async (platform, settings) => (await import('./run.js')).start(platform, settings),
  console: {
    nav: { href: '/home', label: 'Home' },
    register: async (app, ctx) => (await import('./console/home.js')).homePages(app, ctx),
  },
  mcp: homeTools,
});
