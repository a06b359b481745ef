#!/usr/bin/env node
// The one entry point: `hamlet start | keys | migrate | worker | world`.
import { readFileSync } from 'node:fs';
import { configure, type HamletConfig, parseArgs } from './config.js';
import type { ConfiguredService } from './platform/service.js';
import { ConfigError } from './platform/settings.js';
import { SERVICE_NAMES, type ServiceName } from './services/registry.js';
import { migrate } from './platform/db.js';
import { Directory, reachableUrl } from './platform/directory.js';
import { createLogger } from './platform/logger.js';
import type { PortSetting } from './platform/settings.js';
import { describeStartupError } from './platform/startup-errors.js';
import { ADMIN_KEYS } from './console/admin-keys.js';
import { WORLD_USAGE } from './console/world/usage.js';
import { EVAL_USAGE } from './eval/usage.js';
import { loadService } from './services/registry.js';
import { closePlatform, openPlatform, prepareServices, startHamlet } from './server.js';

const USAGE = `Usage:
  hamlet --help | --version
  hamlet start [--services blog,mail,...] [--pretty]   run the services (Ctrl-C stops)
  hamlet keys create <service> [--name N]              print one new API key (mail, home, workflow; admin: the console)
  hamlet keys list <service>                           list a service's keys (never the keys themselves)
  hamlet keys revoke <service> <key-id>                revoke a key
  hamlet migrate                                       create or upgrade the tables, then exit
  hamlet mail outbox                                   print the mail to other domains held while no relay is set
  hamlet worker [--concurrency N]                      run every service's queued jobs in queue mode (REDIS_URL)
  hamlet mcp [--keys k1,k2]                            the MCP server for all services over stdio (services run elsewhere)
${WORLD_USAGE}
${EVAL_USAGE}

Configuration comes from the environment (see README.md); flags override it.`;

/** The configuration once loaded, so a failure can name the setting behind it. */
let loaded: { config: HamletConfig; ports: PortSetting[] } | undefined;

async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseArgs(argv);
  const [command, ...rest] = positional;
  if (flags['version'] || command === 'version') {
    console.log(`hamlet ${packageVersion()}`);
    return 0;
  }
  // Asking for help succeeds; running with no command at all is a mistake worth a non-zero exit.
  if (!command || command === 'help' || flags['help']) {
    (command || flags['help'] ? console.log : console.error)(USAGE);
    return command || flags['help'] ? 0 : 1;
  }
  // `--concurrency N` of `hamlet worker` is the workflow's WORKFLOW_CONCURRENCY for this process.
  const env = command === 'worker' && flags['concurrency'] ? { ...process.env, WORKFLOW_CONCURRENCY: flags['concurrency'] } : process.env;
  const { config, services, ports } = await configure(env, flags);
  loaded = { config, ports };

  switch (command) {
    case 'start':
      return start(config, services);
    case 'migrate': {
      const platform = await openPlatform(config, { logger: createLogger({ level: 'warn', pretty: false }) });
      for (const { definition } of services) await migrate(platform.db, definition.name, definition.migrations);
      await closePlatform(platform);
      console.error('migrations done');
      return 0;
    }
    case 'keys':
      return keys(config, rest, flags);
    case 'mail':
      return mail(config, rest);
    case 'worker':
      return worker(config, services);
    case 'mcp':
      return mcp(config, services, flags);
    case 'world': {
      // Loaded on demand: the demo generator and the scenario runner are not needed to start.
      const { worldCommand } = await import('./commands/world.js');
      return worldCommand(config, services, rest, flags);
    }
    case 'eval':
      return (await import('./eval/command.js')).evalCommand(config, rest, flags);
    default:
      console.error(`unknown command: ${command}\n\n${USAGE}`);
      return 1;
  }
}

async function start(config: HamletConfig, services: ConfiguredService[]): Promise<number> {
  const hamlet = await startHamlet(config, { services });
  // Listen for Ctrl-C and SIGTERM before printing the URLs: whoever waits for them (a script,
  // a supervisor, a test) may signal the moment it reads them.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  printUrls({ ...hamlet.services, ...(hamlet.console ? { console: hamlet.console } : {}) });
  if (!config.smtpRelay) {
    console.log(
      hamlet.services.mail
        ? 'note: HAMLET_SMTP_RELAY is not set: mail to other domains is held in the mail outbox (GET /v0/outbox, `npx hamlet mail outbox`) and sent when Hamlet starts with a relay'
        : 'note: HAMLET_SMTP_RELAY is not set: mail to other domains waits in the job queue until Hamlet runs with the mail service (its outbox) or a relay',
    );
  }
  await stopRequested;
  console.log('stopping…');
  await hamlet.stop();
  return 0;
}

/** The URL table, set apart from the log lines above it. */
function printUrls(services: Record<string, { urls: Record<string, string> } | undefined>): void {
  const rows = Object.entries(services).flatMap(([name, svc]) => Object.entries(svc!.urls).map(([label, url]) => `${name.padEnd(10)} ${label.padEnd(10)} ${url}`));
  console.log(`\nHamlet ${packageVersion()} is running:\n${rows.join('\n')}\n`);
}

function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

// Queue mode's worker process: registers every selected service's queues (mail deliveries,
// webhooks, scheduled drafts, workflow executions…) and runs their jobs from BullMQ against the
// shared database; serves no HTTP.
async function worker(config: HamletConfig, services: ConfiguredService[]): Promise<number> {
  if (!config.redisUrl) {
    console.error('hamlet worker runs queued jobs from Redis: set REDIS_URL (and DATABASE_URL for a database the server shares)');
    return 1;
  }
  const platform = await openPlatform(config);
  const prepared = await prepareServices(platform, services);
  await platform.jobs.start();
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  console.log('worker ready');
  await stopRequested;
  for (const { jobs } of prepared.reverse()) await jobs.stop();
  await closePlatform(platform);
  return 0;
}

/**
 * `hamlet mcp`: MCP over stdio for an agent that starts its tools as processes. stdout is the
 * protocol channel, so nothing else may print there. Services are reached where
 * HAMLET_<SERVICE>_URL or their port settings say.
 */
async function mcp(config: HamletConfig, services: ConfiguredService[], flags: Record<string, string>): Promise<number> {
  const directory = new Directory(config.serviceUrls);
  for (const { definition, settings } of services) if (settings.port) directory.expect(definition.name, reachableUrl(config.host, settings.port));
  const keys = (flags['keys'] ?? config.source.env.HAMLET_MCP_KEYS ?? '').split(/[\s,]+/).filter(Boolean);
  const { serveMcpOverStdio } = await import('./console/mcp/stdio.js');
  await serveMcpOverStdio((service) => directory.url(service), keys);
  return 0;
}

/** `hamlet mail outbox`: what the mail service holds for a relay (src/services/mail/outbox). */
async function mail(config: HamletConfig, args: string[]): Promise<number> {
  if (args[0] !== 'outbox') {
    console.error(USAGE);
    return 1;
  }
  const def = await loadService('mail');
  const platform = await openPlatform(config, { logger: createLogger({ level: 'warn', pretty: false }) });
  try {
    await migrate(platform.db, def.name, def.migrations);
    const { printOutbox } = await import('./services/mail/outbox/print.js');
    await printOutbox(platform, (line) => console.log(line));
    return 0;
  } finally {
    await closePlatform(platform);
  }
}

async function keys(config: HamletConfig, args: string[], flags: Record<string, string>): Promise<number> {
  const [action, service, id] = args;
  if (!service || !(service === ADMIN_KEYS || (SERVICE_NAMES as readonly string[]).includes(service))) {
    console.error(`keys ${action ?? ''}: name a service (${SERVICE_NAMES.join(', ')}) or ${ADMIN_KEYS} (the console)`);
    return 1;
  }
  // Admin keys open the console; they belong to no service.
  const def = service === ADMIN_KEYS ? { adminKeys: true } : await loadService(service as ServiceName);
  const platform = await openPlatform(config, { logger: createLogger({ level: 'warn', pretty: false }) });
  try {
    if (action === 'create') {
      if (!def.adminKeys) {
        console.error(`${service} keys are issued to its own users (by registration), not by an admin`);
        return 1;
      }
      const { key } = await platform.keys.create(service, { name: flags['name'] });
      process.stdout.write(key + '\n');
      return 0;
    }
    if (action === 'list') {
      for (const k of await platform.keys.list(service)) {
        console.log(`${k.id}  …${k.hint}  ${k.createdAt}  ${k.revokedAt ? 'revoked ' + k.revokedAt : 'live'}  ${k.name ?? ''}`);
      }
      return 0;
    }
    if (action === 'revoke' && id) {
      const n = await platform.keys.revoke({ service, id });
      console.error(n ? 'revoked' : 'no live key with that id');
      return n ? 0 : 1;
    }
    console.error(USAGE);
    return 1;
  } finally {
    await closePlatform(platform);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    // One line an operator can act on; the stack is for whoever debugs Hamlet itself.
    if (err instanceof ConfigError) console.error(err.message);
    else console.error(describeStartupError(err, loaded?.config, loaded?.ports));
    const level = parseArgs(process.argv.slice(2)).flags['log-level'] ?? process.env.HAMLET_LOG_LEVEL;
    if (!(err instanceof ConfigError) && (level === 'debug' || level === 'trace')) console.error(err?.stack ?? err);
    process.exitCode = 1;
  },
);
