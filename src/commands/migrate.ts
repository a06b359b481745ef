// `hamlet migrate`: create or upgrade the platform's and the selected services' tables, then exit.
import type { Command } from './command.js';
import { configured, withPlatform } from './setup.js';

export const command: Command = {
  name: 'migrate',
  usage: 'hamlet migrate [--services blog,mail,...]',
  summary: "Creates or upgrades the platform's tables and the selected services' (HAMLET_SERVICES), then exits.",
  flags: ['--services LIST   the services whose tables to migrate (default: HAMLET_SERVICES, else all)'],
  example: 'DATABASE_URL=postgres://hamlet@db/hamlet hamlet migrate',
  async run(_args, flags) {
    const { config, services } = await configured(flags);
    await withPlatform(config, services, async () => {});
    console.error('migrations done');
    return 0;
  },
};
