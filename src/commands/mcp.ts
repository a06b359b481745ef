// `hamlet mcp`: MCP over stdio for an agent that starts its tools as processes. stdout is the
// protocol channel, so nothing else may print there. Services are reached where
// HAMLET_<SERVICE>_URL or their port settings say.
import { Directory, reachableUrl } from '../platform/directory.js';
import type { Command } from './command.js';
import { configured } from './setup.js';

export const command: Command = {
  name: 'mcp',
  usage: 'hamlet mcp [--keys k1,k2]',
  summary:
    'Serves the MCP server of all the services over stdio; the services run elsewhere (hamlet start), reached at HAMLET_<SERVICE>_URL or their ports.',
  flags: [
    "--keys LIST   the agent's service keys, comma separated (HAMLET_MCP_KEYS); keys a registration returns are kept for the session",
  ],
  example: 'hamlet mcp --keys hamlet_mail_…,hamlet_home_…',
  async run(_args, flags) {
    const { config, services } = await configured(flags);
    const directory = new Directory(config.serviceUrls);
    for (const { definition, settings } of services) {
      if (settings.port) directory.expect(definition.name, reachableUrl(config.host, settings.port));
      directory.takesKeysIn(definition.name, definition.keyHeader);
    }
    const keys = (flags['keys'] ?? config.source.env.HAMLET_MCP_KEYS ?? '').split(/[\s,]+/).filter(Boolean);
    const { serveMcpOverStdio } = await import('../console/mcp/stdio.js');
    await serveMcpOverStdio(
      directory,
      services.map((s) => s.definition),
      keys,
    );
    return 0;
  },
};
