// The command line's words: flags (`--x v`, `--x=v`, boolean `--pretty`, short `-h`) and the
// positional words, in order. Kept apart from the configuration so `--version` loads nothing else.
const BOOLEAN_FLAGS = new Set(['pretty', 'help', 'version']);
/** The short forms people type first. */
const SHORT_FLAGS: Record<string, string> = { '-h': 'help', '-v': 'version', '-V': 'version' };

/** Splits argv into `--name value` / `--name=value` / `--flag` flags and positional words. */
export function parseArgs(argv: string[]): { flags: Record<string, string>; positional: string[] } {
  const flags: Record<string, string> = {};
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (SHORT_FLAGS[arg]) {
      flags[SHORT_FLAGS[arg]] = 'true';
      continue;
    }
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags[arg.slice(2, eq)] = arg.slice(eq + 1);
    } else if (!BOOLEAN_FLAGS.has(arg.slice(2)) && i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      flags[arg.slice(2)] = argv[++i]!;
    } else {
      flags[arg.slice(2)] = 'true';
    }
  }
  return { flags, positional };
}
