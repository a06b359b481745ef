// `hamlet keys create|list|revoke`: a service's API keys on the configured storage. Opens only
// the platform's keys (platform/key-store.ts): no service runs, only the platform's settings are
// read, and only the named service's declaration is loaded.
import { ADMIN_KEYS } from '../console/admin-keys.js';
import { loadService, registeredServices } from '../services/registry.js';
import type { Command } from './command.js';
import { USAGE_ERROR } from './command.js';
import { platformConfigured } from './setup.js';

const SERVICES = () => `${registeredServices().join(', ')} or ${ADMIN_KEYS}`;

export const command: Command = {
  name: 'keys',
  usage: 'hamlet keys create|list|revoke <service> …',
  summary: `Creates, lists or revokes the API keys of a service (${SERVICES()}: the console's admin keys).`,
  example: 'hamlet keys create mail --name my-agent',
  subcommands: [
    {
      name: 'create',
      usage: 'hamlet keys create <service> [--name N]',
      summary: 'print one new API key (mail, home, workflow; admin: the console)',
      flags: ['--name N   a label shown by `keys list` and in the console'],
      example: 'hamlet keys create workflow --name ci',
    },
    {
      name: 'list',
      usage: 'hamlet keys list <service>',
      summary: "list a service's keys (id, last characters, dates; never the keys themselves)",
      example: 'hamlet keys list mail',
    },
    {
      name: 'revoke',
      usage: 'hamlet keys revoke <service> <key-id>',
      summary: 'revoke a key (its id from `keys list`)',
      example: 'hamlet keys revoke mail 01J9Z6…',
    },
  ],
  async run([action, service, id], flags) {
    if (!service || !(service === ADMIN_KEYS || registeredServices().includes(service))) {
      console.error(`hamlet keys ${action}: name a service (${SERVICES()}); see hamlet keys ${action} --help`);
      return USAGE_ERROR;
    }
    if (action === 'revoke' && !id) {
      console.error('hamlet keys revoke: name the key id (from hamlet keys list <service>)');
      return USAGE_ERROR;
    }
    // Admin keys open the console; they belong to no service.
    const adminKeyed = service === ADMIN_KEYS || (await loadService(service)).adminKeys;
    if (action === 'create' && !adminKeyed) {
      console.error(`${service} keys are issued to its own users (by registration), not by an admin`);
      return 1;
    }
    const config = platformConfigured(flags);
    // The keys alone: the database and the platform's tables, not the whole platform (key-store.ts).
    const { openKeyStore } = await import('../platform/key-store.js');
    const store = await openKeyStore(config);
    try {
      if (action === 'create') {
        const { key } = await store.keys.create(service, { name: flags['name'] });
        process.stdout.write(key + '\n');
        return 0;
      }
      if (action === 'list') {
        for (const k of await store.keys.list(service)) {
          console.log(
            `${k.id}  …${k.hint}  ${k.createdAt}  ${k.revokedAt ? 'revoked ' + k.revokedAt : 'live'}  ${k.name ?? ''}`,
          );
        }
        return 0;
      }
      const n = await store.keys.revoke({ service, id: id });
      console.error(n ? 'revoked' : 'no live key with that id');
      return n ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
