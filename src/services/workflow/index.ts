// The workflow service, declared: everything Hamlet knows about it (settings, tables, world,
// console page, MCP tools, the key header n8n reads). Its running part (run.ts) is loaded only
// when it starts, so commands that only read declarations stay fast.
// docs/adding-a-service.md lists what a declaration holds.
import { defineService } from '../../platform/service.js';
import { workflowTools } from './mcp-tools.js';
import { migrations } from './migrations.js';
import { readWorkflowSettings } from './settings.js';
import { workflowWorld } from './world.js';

export default defineService({
  name: 'workflow',
  migrations,
  adminKeys: true,
  settings: readWorkflowSettings,
  queues: async (platform, settings) => (await import('./run.js')).queues(platform, settings),
  start: async (platform, settings, engine) => (await import('./run.js')).start(platform, settings, engine),
  world: workflowWorld,
  keyHeader: 'x-n8n-api-key', // n8n's API key header
  console: {
    nav: { href: '/workflows', label: 'Workflows' },
    register: async (app, ctx) => (await import('./console/workflow.js')).workflowPages(app, ctx),
  },
  mcp: workflowTools,
});
