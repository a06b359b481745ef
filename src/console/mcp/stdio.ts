// `hamlet mcp`: the same MCP server over stdio, for agents that start their tools as
// processes. The services run elsewhere (`hamlet start`); their addresses come from
// HAMLET_<SERVICE>_URL or the ports the settings name. Keys come from HAMLET_MCP_KEYS (comma
// separated) or --keys, and keys a registration hands out are kept for the session.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Directory } from '../../platform/directory.js';
import type { ServiceDefinition } from '../../platform/service.js';
import { catalogOf } from './catalog.js';
import { KeyRing } from './keyring.js';
import { createMcpServer } from './server.js';
import { hamletVersion } from '../version.js';

export async function serveMcpOverStdio(
  directory: Directory,
  definitions: ServiceDefinition[],
  keys: string[],
): Promise<void> {
  const server = createMcpServer({
    baseUrl: (service) => directory.url(service),
    keyHeaders: (service, key) => directory.keyHeaders(service, key),
    catalog: catalogOf(definitions),
    keys: new KeyRing(keys),
    rememberKeys: true,
    version: hamletVersion(),
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
  await server.connect(transport);
  await closed;
}
