// The blog service, declared: everything Hamlet knows about it (settings, tables, world, MCP
// tools). Its running part (run.ts) is loaded only when it starts, so commands that only read
// declarations (help, keys) stay fast. docs/adding-a-service.md lists what a declaration holds.
import { defineService, noJobs } from '../../platform/service.js';
import { blogTools } from './mcp-tools.js';
import { migrations } from './migrations.js';
import { describeBlogChange } from './store/describe-changes.js';
import { readBlogSettings } from './settings.js';

export default defineService({
  name: 'blog',
  migrations,
  adminKeys: false, // agents get their keys by verifying their e-mail
  settings: readBlogSettings,
  queues: noJobs,
  // The semantic diff's sentences for this service's rows (docs/evaluations.md).
  world: { describe: describeBlogChange },
  start: async (platform, settings) => (await import('./run.js')).start(platform, settings),
  mcp: blogTools,
});
