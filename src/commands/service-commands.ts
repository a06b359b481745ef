// `hamlet <service> <command>`: the commands a service declares (ServiceDefinition.cli), run
// with a context the CLI builds (the configured storage, the service's tables migrated). The
// CLI names no service: it finds them in the registry.
import type { Platform, ServiceDefinition } from '../platform/service.js';
import type { Command } from './command.js';

/** A service's commands as one CLI command with subcommands, or undefined when it declares none. */
export function serviceCommand(definition: ServiceDefinition): Command | undefined {
  const commands = definition.cli ?? [];
  if (!commands.length) return undefined;
  const usageOf = (c: (typeof commands)[number]) =>
    `hamlet ${definition.name} ${c.name}${c.flags?.length ? ' [flags]' : ''}`;
  return {
    name: definition.name,
    usage: `hamlet ${definition.name} ${commands.map((c) => c.name).join('|')}`,
    summary: `The ${definition.name} service's own commands.`,
    example: commands[0].example,
    subcommands: commands.map((c) => ({
      name: c.name,
      usage: usageOf(c),
      summary: c.summary,
      flags: c.flags,
      example: c.example,
    })),
    async run([name, ...args], flags) {
      // Loaded here, not at the top: `hamlet help` reads this file and must load no configuration.
      const { configured, withPlatform } = await import('./setup.js');
      const { config, services } = await configured(flags);
      const own = services.find((s) => s.definition.name === definition.name) ?? { definition, settings: { port: 0 } };
      const ctx = {
        withPlatform: <T>(work: (platform: Platform) => Promise<T>) => withPlatform(config, [own], work),
        out: (line: string) => console.log(line),
        say: (line: string) => console.error(line),
      };
      return commands.find((c) => c.name === name)!.run(ctx, args, flags);
    },
  };
}
