// The mail service, declared: everything Hamlet knows about it (settings, tables, world,
// console page, MCP tools, `hamlet mail …` commands). Its running part (run.ts) is loaded only
// when it starts, so commands that only read declarations stay fast. docs/adding-a-service.md
// lists what a declaration holds.
import { defineService } from '../../platform/service.js';
import { mailTools } from './mcp-tools.js';
import { migrations } from './migrations.js';
import { readMailSettings } from './settings.js';
import { mailWorld } from './world.js';

export default defineService({
  name: 'mail',
  migrations,
  adminKeys: true,
  settings: readMailSettings,
  queues: async (platform, settings) => (await import('./run.js')).queues(platform, settings),
  start: async (platform, settings, core) => (await import('./run.js')).start(platform, settings, core),
  world: mailWorld,
  console: {
    nav: { href: '/mail', label: 'Mail' },
    register: async (app, ctx) => (await import('./console/mail.js')).mailPages(app, ctx),
  },
  mcp: mailTools,
  cli: [
    {
      name: 'outbox',
      summary: 'print the mail to other domains held while no relay is set',
      example: 'hamlet mail outbox',
      run: async (ctx) =>
        ctx.withPlatform(async (platform) => {
          const { printOutbox } = await import('./outbox/print.js');
          await printOutbox(platform, ctx.out);
          return 0;
        }),
    },
  ],
});
