// What a CLI command is: its help (usage, flags, an example; subcommands each with their own)
// and its run. Each command lives in its own file under src/commands/ and is registered by one
// line in index.ts, which names it and its one-line summary so `hamlet help` loads no command.
export interface Usage {
  /** What to type, e.g. `hamlet keys create <service> [--name N]`. */
  usage: string;
  /** One line for lists. */
  summary: string;
  /** Its flags, one per line (`--name N   a label for the key`). */
  flags?: string[];
  /** One example line. */
  example: string;
}

export interface Subcommand extends Usage {
  name: string;
}

export interface Command extends Usage {
  name: string;
  /** When set, the command needs one of these as its first argument (`hamlet keys create …`). */
  subcommands?: Subcommand[];
  /** Runs with the arguments after the command's name; returns the exit code. */
  run(args: string[], flags: Record<string, string>): Promise<number>;
}

/** Exit code of a command line that is not understood (a missing or unknown subcommand, a missing argument). */
export const USAGE_ERROR = 2;

/** The help of a command or subcommand: usage, flags, example. */
export function helpText(u: Usage, subcommands: Subcommand[] = []): string {
  const lines = [`Usage: ${u.usage}`, '', u.summary];
  if (subcommands.length) {
    lines.push('', 'Commands:');
    const width = Math.max(...subcommands.map((s) => s.usage.length));
    for (const s of subcommands) lines.push(`  ${s.usage.padEnd(width)}   ${s.summary}`);
    lines.push('', `Each has its own help: ${subcommands[0].usage.split(' ').slice(0, 3).join(' ')} --help`);
  }
  if (u.flags?.length) lines.push('', 'Flags:', ...u.flags.map((f) => `  ${f}`));
  lines.push('', 'Example:', `  ${u.example}`);
  return lines.join('\n');
}

/**
 * Help for `hamlet <cmd> [sub] --help`, or the refusal of a missing/unknown subcommand: prints
 * and returns the exit code, or undefined when the command should run.
 */
export function answerHelpOrMisuse(cmd: Command, args: string[], flags: Record<string, string>): number | undefined {
  const sub = cmd.subcommands?.find((s) => s.name === args[0]);
  if (flags['help']) {
    console.log(helpText(sub ?? cmd, sub ? [] : cmd.subcommands));
    return 0;
  }
  if (cmd.subcommands && !sub) {
    const expected = cmd.subcommands.map((s) => s.name).join(', ');
    console.error(
      `${args[0] ? `hamlet ${cmd.name}: unknown command ${args[0]}` : `hamlet ${cmd.name} needs a command`}: one of ${expected}\n\n${helpText(cmd, cmd.subcommands)}`,
    );
    return USAGE_ERROR;
  }
  return undefined;
}
