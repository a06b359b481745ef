// `hamlet world …`: the world commands on the configured storage (HAMLET_DATA_DIR or
// DATABASE_URL). They change the rows directly and announce the restore on the event bus,
// which reaches running instances in queue mode (REDIS_URL); an embedded Hamlet that is
// running should be changed through its admin API instead (docs/harness.md).
import { writeFileSync } from 'node:fs';
import type { HamletConfig } from '../config.js';
import { migrate } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import type { ConfiguredService, Platform } from '../platform/service.js';
import { closePlatform, openPlatform } from '../server.js';
import { generateDemoWorldWithKeys, type DemoSize } from './world-demo.js';
import { withPrivateInstance } from './private-instance.js';
import { AgentKeysError, mintAgentKeys } from '../console/world/agent-keys.js';
import { decodeWorldFile, saveWorld, WorldFileError } from '../console/world/file.js';
import { worldOf } from '../console/world/index.js';
import { readScenario, ScenarioError } from '../console/world/scenario.js';
import { seedScenario } from '../console/world/seed.js';
import { stateHash } from '../console/world/state.js';
import { WORLD_USAGE } from '../console/world/usage.js';


const quiet = () => createLogger({ level: 'warn', pretty: false });

async function withPlatform<T>(config: HamletConfig, services: ConfiguredService[], work: (platform: Platform) => Promise<T>): Promise<T> {
  const platform = await openPlatform(config, { logger: quiet() });
  try {
    for (const { definition } of services) await migrate(platform.db, definition.name, definition.migrations);
    return await work(platform);
  } finally {
    await closePlatform(platform);
  }
}

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
    case 'keys':
      if (!file) break;
      return agentKeysCommand(config, file, flags);
  }
  console.error(`Usage:\n${WORLD_USAGE}`);
  return 1;
}

async function seedDemo(config: HamletConfig, services: ConfiguredService[], flags: Record<string, string>): Promise<number> {
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
      keys = await seedScenario(hamlet.platform, hamlet.services, scenario, baseDir, worldOf(hamlet.platform, selected));
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
  const only = flags['services']?.split(',').map((s) => s.trim()).filter(Boolean);
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
