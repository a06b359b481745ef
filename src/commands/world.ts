// `hamlet world …`: the world commands on the configured storage (HAMLET_DATA_DIR or
// DATABASE_URL). They change the rows directly and announce the restore on the event bus,
// which reaches running instances in queue mode (REDIS_URL); an embedded Hamlet that is
// running should be changed through its admin API instead (docs/harness.md).
import { writeFileSync } from 'node:fs';
import { configure, type HamletConfig } from '../config.js';
import type { ConfiguredService } from '../platform/service.js';
import { startHamlet } from '../server.js';
import { helpText, USAGE_ERROR, type Command } from './command.js';
import { configured, quietLogger as quiet, withPlatform } from './setup.js';
import { generateDemoWorld, type DemoSize } from './world-demo.js';
import { decodeWorldFile, saveWorld, WorldFileError } from '../console/world/file.js';
import { worldOf } from '../console/world/index.js';
import { readScenario } from '../console/world/scenario.js';
import { seedScenario } from '../console/world/seed.js';
import { stateHash } from '../console/world/state.js';

export const command: Command = {
  name: 'world',
  usage: 'hamlet world save|load|reset|hash|seed …',
  summary: "Saves, restores, resets, hashes or seeds the world (every selected service's state) on the configured storage.",
  example: 'hamlet world save before.hamlet && hamlet world load before.hamlet',
  subcommands: [
    { name: 'save', usage: 'hamlet world save <file> [--name N]', summary: "save every service's state to one file (gzip JSON Lines); prints its hash", flags: ['--name N   a name stored in the file'], example: 'hamlet world save monday.hamlet --name monday' },
    { name: 'load', usage: 'hamlet world load <file>', summary: 'replace the world with a saved one; prints the restored hash', example: 'hamlet world load monday.hamlet' },
    { name: 'reset', usage: 'hamlet world reset', summary: 'empty the world (the instance keeps its own rows and admin keys)', example: 'hamlet world reset' },
    { name: 'hash', usage: 'hamlet world hash', summary: 'print the state hash', example: 'hamlet world hash' },
    {
      name: 'seed',
      usage: 'hamlet world seed <scenario.yaml> [--keys-out F] | --demo [--seed N] [--size small|large]',
      summary: "seed a scenario through the services' APIs and print (or write) its keys; or replace the world with the generated demo world",
      flags: ['--keys-out F          write the scenario\'s keys to F (mode 600) instead of stdout', '--demo                generate the demo world (a lived-in week) instead of a scenario', '--seed N              the demo\'s seed (default 1): the same seed gives the same world', '--size small|large    the demo\'s size (default small; large is ≥ 100k rows)'],
      example: 'hamlet world seed --demo --seed 7 --size small',
    },
  ],
  async run(args, flags) {
    const { config, services } = await configured(flags);
    return worldCommand(config, services, args, flags);
  },
};

export async function worldCommand(config: HamletConfig, services: ConfiguredService[], args: string[], flags: Record<string, string>): Promise<number> {
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
        return hash === header.hash ? 0 : (say(`the restored world hashes to ${hash}, not the saved ${header.hash} (different services?)`), 1);
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
  }
  const sub = command.subcommands!.find((s) => s.name === action)!;
  console.error(`hamlet world ${action}: missing argument\n\n${helpText(sub)}`);
  return USAGE_ERROR;
}

async function seedDemo(config: HamletConfig, services: ConfiguredService[], flags: Record<string, string>): Promise<number> {
  const seed = Number(flags['seed'] ?? 1);
  const size = (flags['size'] ?? 'small') as DemoSize;
  if (!Number.isSafeInteger(seed) || !['small', 'large'].includes(size)) {
    console.error('--seed takes a whole number, --size small or large');
    return 1;
  }
  const state = await generateDemoWorld({ seed, size });
  return withPlatform(config, services, async (platform) => {
    const world = worldOf(platform, services);
    await world.restore(state);
    const hash = await world.hash();
    console.error(`demo world (seed ${seed}, ${size}): ${state.tables.reduce((n, t) => n + t.rows.length, 0)} rows`);
    console.log(hash);
    return hash === stateHash(state) ? 0 : 1;
  });
}

/** Runs a private instance on the configured storage (free ports, no console) and seeds through its APIs. */
async function seedFile(config: HamletConfig, file: string, flags: Record<string, string>): Promise<number> {
  const { scenario, baseDir } = readScenario(file);
  const env = config.source.env;
  const { ports } = await configure(env, {});
  const own = await configure({ ...env, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])), HAMLET_CONSOLE: 'off', HAMLET_RATE_LIMITS: 'off' }, { services: config.services.join(',') });
  const hamlet = await startHamlet(own.config, { services: own.services, logger: quiet() });
  try {
    const keys = await seedScenario(hamlet.platform, hamlet.services, scenario, baseDir);
    const json = JSON.stringify(keys, null, 2) + '\n';
    if (flags['keys-out']) {
      writeFileSync(flags['keys-out'], json, { mode: 0o600 });
      console.error(`keys written to ${flags['keys-out']}`);
    } else process.stdout.write(json);
    return 0;
  } finally {
    await hamlet.stop();
  }
}
