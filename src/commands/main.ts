// The command line's dispatch: `hamlet <command> [subcommand] [args] [--flags]`. Loads only the
// command asked for (each is a dynamic import), so `--version` and `help` read no
// configuration and open nothing. cli.ts runs it; tests call it in-process.
import { parseArgs } from './args.js';
import { loadService, registeredServices } from '../services/registry.js';
import { answerHelpOrMisuse, USAGE_ERROR, type Command } from './command.js';
import { COMMANDS } from './index.js';
import { serviceCommand } from './service-commands.js';
import { hamletVersion } from '../console/version.js';

/** The global help: every command, then every service's own commands (from their declarations). */
async function usage(): Promise<string> {
  const rows: Array<[string, string]> = [
    ['hamlet --help | --version', ''],
    ...COMMANDS.map((c): [string, string] => [c.usage, c.summary]),
  ];
  for (const name of registeredServices()) {
    const cmd = serviceCommand(await loadService(name));
    for (const sub of cmd?.subcommands ?? []) rows.push([sub.usage, sub.summary]);
  }
  const width = Math.max(...rows.map(([u]) => u.length));
  return [
    'Usage:',
    ...rows.map(([u, s]) => `  ${u.padEnd(width)}   ${s}`.trimEnd()),
    '',
    'Every command has its own help: hamlet <command> --help (and hamlet <command> <subcommand> --help).',
    'Configuration comes from the environment (see README.md); flags override it.',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const { flags, positional } = parseArgs(argv);
  const [name, ...args] = positional;
  if (flags['version'] || name === 'version') {
    console.log(`hamlet ${hamletVersion()}`);
    return 0;
  }
  // Asking for help succeeds; running with no command at all is a mistake worth a non-zero exit.
  if (!name || name === 'help') {
    if (name === 'help' && args[0]) return main([...args, '--help']);
    (name || flags['help'] ? console.log : console.error)(await usage());
    return name || flags['help'] ? 0 : 1;
  }
  const command = await find(name);
  if (!command) {
    console.error(`unknown command: ${name}\n\n${await usage()}`);
    return USAGE_ERROR;
  }
  const answered = answerHelpOrMisuse(command, args, flags);
  if (answered !== undefined) return answered;
  return command.run(args, flags);
}

async function find(name: string): Promise<Command | undefined> {
  const entry = COMMANDS.find((c) => c.name === name);
  if (entry) return entry.load();
  if (!registeredServices().includes(name)) return undefined;
  return serviceCommand(await loadService(name));
}
