// The community service, declared: everything Hamlet knows about it (settings, tables, console
// page, MCP tools). Its running part (run.ts) is loaded only when it starts, so commands that
// only read declarations stay fast. docs/adding-a-service.md lists what a declaration holds.
import { defineService, noJobs } from '../../platform/service.js';
import { communityTools } from './mcp-tools.js';
import { communityMigrations } from './migrations.js';
import { describeCommunityChange } from './store/describe-changes.js';
import { readCommunitySettings } from './settings.js';

export default defineService({
  name: 'community',
  migrations: communityMigrations,
  adminKeys: false,
  settings: readCommunitySettings,
  queues: noJobs,
  // The semantic diff's sentences for this service's rows (docs/evaluations.md).
  world: { describe: describeCommunityChange },
  start: async (platform, settings) => (await import('./run.js')).start(platform, settings),
  // The blog and the community on one page (it reads the blog's public API when the blog runs).
  console: {
    nav: { href: '/social', label: 'Blog & community' },
    register: async (app, ctx) => (await import('./console/social.js')).socialPages(app, ctx),
  },
  mcp: communityTools,
});
