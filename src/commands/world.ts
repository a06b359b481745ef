// `hamlet world …`: the world commands on the configured storage (HAMLET_DATA_DIR or
// DATABASE_URL). They change the rows directly and announce the restore on the event bus,
// which reaches running instances in queue mode (REDIS_URL); an embedded Hamlet that is
// running should be changed through its admin API instead (docs/harness.md).
import { writeFileSync } from 'node:fs';
import type { HamletConfig } from '../config.js';
import type { ConfiguredService } from '../platform/service.js';
import { helpText, USAGE_ERROR, type Command } from './command.js';
import { configured, withPlatform } from './setup.js';
import { generateDemoWorldWithKeys, type DemoSize } from '../demo/world-demo.js';
import { withPrivateInstance } from './private-instance.js';
import { AgentKeysError, mintAgentKeys } from '../console/world/agent-keys.js';
import { decodeWorldFile, saveWorld, WorldFileError } from '../console/world/file.js';
import { worldOf } from '../console/world/index.js';
import { readScenario, ScenarioError } from '../console/world/scenario.js';
import { seedScenario } from '../console/world/seed.js';
import { stateHash } from '../console/world/state.js';

export const command: Command = {
  name: 'world',
  usage: 'hamlet world save|load|reset|hash|seed|keys …',
  summary:
    "Saves, restores, resets, hashes or seeds the world (every selected service's state) on the configured storage.",
  example: 'hamlet world save before.hamlet && hamlet world load before.hamlet',
  subcommands: [
    {
      name: 'save',
      usage: 'hamlet world save <file> [--name N]',
      summary: "save every service's state to one file (gzip JSON Lines); prints its hash",
      flags: ['--name N   a name stored in the file'],
      example: 'hamlet world save monday.hamlet --name monday',
    },
    {
      name: 'load',
      usage: 'hamlet world load <file>',
      summary: 'replace the world with a saved one; prints the restored hash',
      example: 'hamlet world load monday.hamlet',
    },
    {
      name: 'reset',
      usage: 'hamlet world reset',
      summary: 'empty the world (the instance keeps its own rows and admin keys)',
      example: 'hamlet world reset',
    },
    { name: 'hash', usage: 'hamlet world hash', summary: 'print the state hash', example: 'hamlet world hash' },
    {
      name: 'seed',
      usage: 'hamlet world seed <scenario.yaml> [--keys-out F] | --demo [--seed N] [--size small|large]',
      summary:
        "seed a scenario through the services' APIs and print (or write) its keys; or replace the world with the generated demo world",
      flags: [
        '--keys-out F          write the keys (of the scenario, or of the demo agents) to F (mode 600) instead of stdout',
        '--demo                generate the demo world (a lived-in week) instead of a scenario',
        "--seed N              the demo's seed (default 1): the same seed gives the same world",
        "--size small|large    the demo's size (default small; large is ≥ 100k rows)",
      ],
      example: 'hamlet world seed --demo --seed 7 --size small --keys-out demo-keys.json',
    },
    {
      name: 'keys',
      usage: 'hamlet world keys <agent> [--services a,b] [--keys-out F]',
      summary: "mint keys to act as one of the world's agents (a key for each account it holds)",
      flags: [
        "--services a,b   only these services' keys",
        '--keys-out F     write them to F (mode 600) instead of stdout',
      ],
      example: 'hamlet world keys ada --services mail,community',
    },
  ],
  async run(args, flags) {
    const { config, services } = await configured(flags);
    return worldCommand(config, services, args, flags);
  },
};

export async function worldCommand(
  config: HamletConfig,
  services: ConfiguredService[],
  args: string[],
  flags: Record<string, string>,
): Promise<number> {
  const [action, file] = args;
  const say = (line: string) => console.error(line);
  switch (action) {
    case 'save':
      if (!file) break;
      return withPlatform(config, services, async (platform) => {
        const state = await worldOf(platform, services).read();
        const { header, file: bytes } = saveWorld(state, platform.clock.now().toISOString(), flags['name']);
        writeFileSync(file, bytes);
        say(`saved ${header.tables.reduce((n, t) => n + t.rows, 0)} rows to ${file}`);
        console.log(header.hash);
        return 0;
      });
    case 'load':
      if (!file) break;
      return withPlatform(config, services, async (platform) => {
        let restored: { skipped: string[]; dropped: number };
        let header;
        const world = worldOf(platform, services);
        try {
          const decoded = await decodeWorldFile(file, config.world);
          header = decoded.header;
          restored = await world.restore(decoded.state);
        } catch (err) {
          if (!(err instanceof WorldFileError)) throw err;
          say(`${file}: ${err.message}`);
          return 1;
        }
        const { skipped, dropped } = restored;
        if (skipped.length) say(`not restored (their services are not selected here): ${skipped.join(', ')}`);
        if (dropped) say(`not restored: ${dropped} rows of the instance (admin and console keys) the file holds`);
        const hash = await world.hash();
        console.log(hash);
        return hash === header.hash
          ? 0
          : (say(`the restored world hashes to ${hash}, not the saved ${header.hash} (different services?)`), 1);
      });
    case 'reset':
      return withPlatform(config, services, async (platform) => {
        const world = worldOf(platform, services);
        await world.reset();
        console.log(await world.hash());
        return 0;
      });
    case 'hash':
      return withPlatform(config, services, async (platform) => {
        console.log(await worldOf(platform, services).hash());
        return 0;
      });
    case 'seed':
      if (flags['demo']) return seedDemo(config, services, flags);
      if (!file) break;
      return seedFile(config, file, flags);
    case 'keys':
      if (!file) break;
      return agentKeysCommand(config, file, flags);
  }
  const sub = command.subcommands!.find((s) => s.name === action)!;
  console.error(`hamlet world ${action}: missing argument\n\n${helpText(sub)}`);
  return USAGE_ERROR;
}

async function seedDemo(
  config: HamletConfig,
  services: ConfiguredService[],
  flags: Record<string, string>,
): Promise<number> {
  const seed = Number(flags['seed'] ?? 1);
  const size = (flags['size'] ?? 'small') as DemoSize;
  if (!Number.isSafeInteger(seed) || !['small', 'large'].includes(size)) {
    console.error('--seed takes a whole number, --size small or large');
    return 1;
  }
  // Minutes for the large world: a line a day on stderr, so the wait is never silent.
  const { state, keys } = await generateDemoWorldWithKeys({ seed, size, progress: (line) => console.error(line) });
  return withPlatform(config, services, async (platform) => {
    const world = worldOf(platform, services);
    await world.restore(state);
    // The clock the demo week ends at is this storage's from now on: the restore set it, and
    // the platform keeps it for the next start (platform/clock-store.ts).
    const hash = await world.hash();
    console.error(`demo world (seed ${seed}, ${size}): ${state.tables.reduce((n, t) => n + t.rows.length, 0)} rows`);
    if (flags['keys-out']) writeKeys(flags['keys-out'], keys);
    console.log(hash);
    return hash === stateHash(state) ? 0 : 1;
  });
}

/** Seeds through a private instance on the configured storage (free ports, no console); all or nothing. */
async function seedFile(config: HamletConfig, file: string, flags: Record<string, string>): Promise<number> {
  const { scenario, baseDir } = readScenario(file);
  return withPrivateInstance(config, async (hamlet, selected) => {
    let keys;
    try {
      keys = await seedScenario(
        hamlet.platform,
        hamlet.services,
        scenario,
        baseDir,
        worldOf(hamlet.platform, selected),
      );
    } catch (err) {
      if (!(err instanceof ScenarioError)) throw err;
      console.error(`${file}: ${err.message}`);
      return 1;
    }
    if (flags['keys-out']) writeKeys(flags['keys-out'], keys);
    else process.stdout.write(JSON.stringify(keys, null, 2) + '\n');
    return 0;
  });
}

/** `hamlet world keys <agent> [--services a,b] [--keys-out F]`: new keys to act as one of the world's agents. */
async function agentKeysCommand(config: HamletConfig, agent: string, flags: Record<string, string>): Promise<number> {
  const only = flags['services']
    ?.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return withPrivateInstance(config, async (hamlet) => {
    let keys;
    try {
      keys = await mintAgentKeys(hamlet.platform, agent, Object.keys(hamlet.services), only);
    } catch (err) {
      if (!(err instanceof AgentKeysError)) throw err;
      console.error(err.message);
      return 1;
    }
    const out = { agents: { [agent]: keys } };
    if (flags['keys-out']) writeKeys(flags['keys-out'], out);
    else process.stdout.write(JSON.stringify(out, null, 2) + '\n');
    return 0;
  });
}

/** Keys are secrets: the file is the owner's alone. */
function writeKeys(file: string, keys: unknown): void {
  writeFileSync(file, JSON.stringify(keys, null, 2) + '\n', { mode: 0o600 });
  console.error(`keys written to ${file}`);
}
