// The commands of `hamlet`, in the order help lists them. Adding a command is one file in this
// folder (exporting `command`, see command.ts) and one line here; the line carries what
// `hamlet help` prints, so listing commands loads none of them. A service's own commands
// (`hamlet mail outbox`) are declared in its ServiceDefinition, not here.
import type { Command } from './command.js';

export interface CommandEntry {
  name: string;
  usage: string;
  summary: string;
  load(): Promise<Command>;
}

export const COMMANDS: CommandEntry[] = [
  {
    name: 'start',
    usage: 'hamlet start [--services blog,mail,...] [--pretty]',
    summary: 'run the services (Ctrl-C stops)',
    load: async () => (await import('./start.js')).command,
  },
  {
    name: 'keys',
    usage: 'hamlet keys create|list|revoke <service> …',
    summary: "create, list or revoke a service's API keys (admin: the console)",
    load: async () => (await import('./keys.js')).command,
  },
  {
    name: 'migrate',
    usage: 'hamlet migrate',
    summary: 'create or upgrade the tables, then exit',
    load: async () => (await import('./migrate.js')).command,
  },
  {
    name: 'worker',
    usage: 'hamlet worker [--concurrency N]',
    summary: "run every service's queued jobs in queue mode (REDIS_URL)",
    load: async () => (await import('./worker.js')).command,
  },
  {
    name: 'mcp',
    usage: 'hamlet mcp [--keys k1,k2]',
    summary: 'the MCP server for all services over stdio (services run elsewhere)',
    load: async () => (await import('./mcp.js')).command,
  },
  {
    name: 'world',
    usage: 'hamlet world save|load|reset|hash|seed|keys …',
    summary: 'save, restore, reset, hash or seed the world; keys to act as one of its agents',
    load: async () => (await import('./world.js')).command,
  },
  {
    name: 'eval',
    usage: 'hamlet eval run|check|schema …',
    summary: 'run an agent on tasks, each episode in an isolated world (docs/evaluations.md)',
    load: async () => (await import('./eval.js')).command,
  },
];
