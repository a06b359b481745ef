// Frictions an evaluator met from the command line (issue 31), each a test that failed before:
// - `world seed --demo` printed no keys: `--keys-out` writes the demo agents' keys, and they
//   open the seeded world;
// - `world keys <agent>` mints keys to act as any agent of the world;
// - seeding, then starting, lost the demo clock, and the start purged the demo week's house
//   history as older than its retention (measured on the real clock, not the platform's).
// The example scenarios from the command line: world-scenarios-cli.test.ts (a file of its own so
// the two, which mostly wait on child processes, run side by side).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet } from '../../src/server.js';
import { testEnv } from '../helpers/hamlet.js';
import { hamlet, tempDirs, WORLD_SERVICES } from './world-cli.js';

async function start(dataDir: string) {
  const config = loadConfig(testEnv({ dataDir }, [...WORLD_SERVICES], { HAMLET_CONSOLE: 'on' }));
  return startHamlet(config, { logger: createLogger({ level: 'silent', pretty: false }) });
}

const dirs = tempDirs();
const tempDir = dirs.make;
afterAll(dirs.removeAll);

describe('the demo world from the command line', () => {
  let dir: string;
  let keys: any;
  beforeAll(async () => {
    dir = tempDir();
    const seeded = await hamlet(dir, 'world', 'seed', '--demo', '--keys-out', path.join(dir, 'keys.json'));
    expect(seeded.code, seeded.stderr).toBe(0);
    keys = JSON.parse(readFileSync(path.join(dir, 'keys.json'), 'utf8'));
  }, 420_000);

  it('start keeps the demo clock and the demo week of house history; the demo keys open the world', async () => {
    const h = await start(dir);
    try {
      // The clock runs on from the end of the demo week (January 2026), not from today.
      const now = h.platform.clock.ms();
      expect(new Date(now).toISOString()).toMatch(/^2026-01-1/);
      // The week of sensor history is still there: the start's purge measured on the platform clock.
      const homeKey = (await h.platform.keys.create('home')).key;
      const since = new Date(Date.parse('2026-01-05T00:00:00Z')).toISOString();
      const history = await fetch(
        `${h.services.home!.urls.api}/api/history/period/${since}?filter_entity_id=sensor.room_1_temperature&end_time=${encodeURIComponent(new Date(now).toISOString())}`,
        { headers: { authorization: `Bearer ${homeKey}` } },
      );
      const series = (await history.json()) as Array<Array<unknown>>;
      expect(series[0]?.length ?? 0).toBeGreaterThan(100);

      // Ada's keys from --keys-out act as Ada.
      const ada = keys.agents.ada;
      const inbox = await fetch(
        `${h.services.mail!.urls.api}/v0/inboxes/${encodeURIComponent(ada.mail.inbox)}/messages`,
        { headers: { authorization: `Bearer ${ada.mail.key}` } },
      );
      expect(inbox.status).toBe(200);
      const me = await fetch(`${h.services.community!.urls.api}/api/v1/agents/me`, {
        headers: { authorization: `Bearer ${ada.community.key}` },
      });
      expect((await me.json()).agent.name).toBe('ada');
      const publish = await fetch(`${h.services.blog!.urls.api}/api/publish`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ada.blog.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'After the demo', content: 'Written with the demo key.' }),
      });
      expect(publish.status).toBeLessThan(300);
    } finally {
      await h.stop();
    }
  }, 120_000);

  it('world keys <agent> mints keys that act as that agent; an unknown agent fails', async () => {
    const minted = await hamlet(dir, 'world', 'keys', 'ben');
    expect(minted.code, minted.stderr).toBe(0);
    const ben = JSON.parse(minted.stdout).agents.ben;
    expect(Object.keys(ben).sort()).toEqual(['blog', 'community', 'mail']);
    const h = await start(dir);
    try {
      const me = await fetch(`${h.services.community!.urls.api}/api/v1/agents/me`, {
        headers: { authorization: `Bearer ${ben.community.key}` },
      });
      expect((await me.json()).agent.name).toBe('ben');
    } finally {
      await h.stop();
    }
    const unknown = await hamlet(dir, 'world', 'keys', 'nobody');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/no agent named nobody/);
  }, 200_000);
});
