// The demo world: a lived-in week across all five services, generated from a seed. It is made
// in a private, throwaway Hamlet (a temporary SQLite file, free ports, no rate limits) through
// the services' own APIs (the house's sensor readings, most of the rows, through the home's
// seeder instead: one batch per hour rather than one call per reading), with the process's
// randomness and time made repeatable (see console/world/determinism.ts) and the clock walked through the
// week; the result is read out as a world state, which `hamlet world seed --demo` then
// restores wherever it is asked to.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configure } from '../config.js';
import { registeredServices } from '../services/registry.js';
import { ManualClock } from '../platform/clock.js';
import { createLogger } from '../platform/logger.js';
import { startHamlet } from '../server.js';
import { deterministically, seededRandom } from '../console/world/determinism.js';
import { worldOf } from '../console/world/index.js';
import { ScenarioRunner, type Scenario, type SeedKeys } from '../console/world/scenario.js';
import { seedScenarioRunner } from '../console/world/seed.js';
import type { WorldState } from '../console/world/state.js';
import { BIOS, COMMENTS, SENTENCES, TITLES } from './demo-corpus.js';

export type DemoSize = 'small' | 'large';

interface Shape {
  agents: number;
  communities: number;
  mailsPerDay: number;
  outsideMailsPerDay: number;
  blogPostsPerDay: number;
  communityPostsPerDay: number;
  sensors: number;
  readingsPerHour: number;
  workflowRunsPerDay: number;
}

const SHAPES: Record<DemoSize, Shape> = {
  small: {
    agents: 12,
    communities: 3,
    mailsPerDay: 3,
    outsideMailsPerDay: 1,
    blogPostsPerDay: 2,
    communityPostsPerDay: 3,
    sensors: 2,
    readingsPerHour: 1,
    workflowRunsPerDay: 1,
  },
  // ≥ 100k rows, most of them the house's recorded history (60 sensors every 5 minutes for a week).
  large: {
    agents: 60,
    communities: 8,
    mailsPerDay: 25,
    outsideMailsPerDay: 5,
    blogPostsPerDay: 10,
    communityPostsPerDay: 20,
    sensors: 60,
    readingsPerHour: 12,
    workflowRunsPerDay: 3,
  },
};

/** Links the services write into records (verification mails…) name the default ports, not the private instance's free ones. */
const LINKS = {
  BLOG_API_URL: 'http://127.0.0.1:4000',
  BLOG_PUBLIC_PORT: '4000',
  BLOG_PUBLIC_SCHEME: 'http',
  MAIL_PUBLIC_URL: 'http://127.0.0.1:4100',
  COMMUNITY_PUBLIC_URL: 'http://127.0.0.1:4200',
  WORKFLOW_PUBLIC_URL: 'http://127.0.0.1:5678',
};

/** The week starts on a fixed Monday, so timestamps depend on the seed alone. */
const START = Date.parse('2026-01-05T00:00:00.000Z');
const DAYS = 7;
const HOUR = 3_600_000;

const NAMES = [
  'ada',
  'ben',
  'cleo',
  'dev',
  'eli',
  'fay',
  'gus',
  'hana',
  'ivo',
  'jade',
  'kai',
  'lena',
  'milo',
  'nia',
  'otto',
  'pia',
  'quinn',
  'rosa',
  'sami',
  'tess',
  'uma',
  'vik',
  'wren',
  'xena',
  'yuri',
  'zoe',
];
const TOPICS = [
  'gardening',
  'cooking',
  'cycling',
  'photography',
  'books',
  'chess',
  'music',
  'astronomy',
  'woodwork',
  'birding',
];
const SUBJECTS = [
  'Plans for the weekend',
  'Quick question',
  'Notes from the meeting',
  'The draft you sent',
  'Lunch on Thursday?',
  'Invoice for March',
  'Your package',
  'Thanks!',
  'Schedule change',
  'Re-reading the proposal',
];
const OUTSIDE = [
  'newsletter@garden-club.example',
  'billing@utility.example',
  'hello@bookshop.example',
  'noreply@parcels.example',
  'events@city.example',
];
class Text {
  constructor(private readonly next: () => number) {}

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(list: readonly T[]): T {
    return list[this.int(list.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One sentence of the corpus (demo-corpus.ts). */
  sentence(): string {
    return this.pick(SENTENCES);
  }

  /** A few different sentences of the corpus. */
  paragraph(n = 2 + this.int(3)): string {
    const out: string[] = [];
    while (out.length < n) {
      const s = this.sentence();
      if (!out.includes(s)) out.push(s);
    }
    return out.join(' ');
  }

  title(): string {
    return this.pick(TITLES);
  }

  comment(): string {
    return this.pick(COMMENTS);
  }

  bio(): string {
    return this.pick(BIOS);
  }
}

function agentNames(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    i < NAMES.length ? NAMES[i] : `${NAMES[i % NAMES.length]}${Math.floor(i / NAMES.length) + 1}`,
  );
}

const DIGEST_WORKFLOW = {
  name: 'Daily digest',
  nodes: [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
    {
      name: 'Digest',
      type: 'n8n-nodes-base.set',
      typeVersion: 3.4,
      position: [220, 0],
      parameters: {
        assignments: {
          assignments: [{ id: '1', name: 'digest', type: 'string', value: 'Mail, posts and the house, summed up' }],
        },
        options: {},
      },
    },
  ],
  connections: { Start: { main: [[{ node: 'Digest', type: 'main', index: 0 }]] } },
  settings: { executionOrder: 'v1' },
};

/** One day's scenario pieces, each placed at an hour of the day. */
function planDay(
  text: Text,
  shape: Shape,
  agents: string[],
  communities: string[],
  day: number,
): Map<number, Scenario> {
  const hours = new Map<number, Scenario>();
  const at = (hour: number) => {
    let s = hours.get(hour);
    if (!s) hours.set(hour, (s = {}));
    return s;
  };
  const waking = () => 7 + text.int(15);
  const two = () => {
    const a = text.pick(agents);
    let b = text.pick(agents);
    while (b === a) b = text.pick(agents);
    return [a, b] as const;
  };
  for (let i = 0; i < shape.mailsPerDay; i++) {
    const [from, to] = two();
    const subject = `${text.pick(SUBJECTS)} (${day + 1}.${i + 1})`;
    (at(waking()).mail ??= []).push({
      from,
      to,
      subject,
      text: text.paragraph(),
      ...(text.chance(0.5) ? { reply: [{ from: to, text: text.paragraph(1) }] } : {}),
    });
  }
  for (let i = 0; i < shape.outsideMailsPerDay; i++) {
    (at(waking()).mail ??= []).push({
      from: text.pick(OUTSIDE),
      to: text.pick(agents),
      subject: `${text.pick(SUBJECTS)} [${day + 1}.${i + 1}]`,
      text: text.paragraph(),
    });
  }
  const bloggers = agents.filter((_, i) => i % 4 !== 3);
  for (let i = 0; i < shape.blogPostsPerDay; i++) {
    const author = text.pick(bloggers);
    const comments = Array.from({ length: text.int(3) }, () => ({
      author: text.pick(bloggers),
      content: text.comment(),
    }));
    const votes = Object.fromEntries(
      Array.from(
        { length: text.int(4) },
        () => [text.pick(bloggers.filter((b) => b !== author)), text.chance(0.85) ? 1 : -1] as const,
      ),
    );
    (at(waking()).blog ??= []).push({
      author,
      title: `${text.title()} ${day + 1}-${i + 1}`,
      content: text.paragraph(4),
      comments,
      votes,
    });
  }
  for (let i = 0; i < shape.communityPostsPerDay; i++) {
    const name = text.pick(communities);
    const author = text.pick(agents);
    const post = {
      author,
      title: text.title(),
      content: text.paragraph(),
      upvotes: [...new Set(Array.from({ length: text.int(5) }, () => text.pick(agents)))].filter((a) => a !== author),
      comments: Array.from({ length: text.int(4) }, () => ({ author: text.pick(agents), content: text.comment() })),
    };
    (at(waking()).communities ??= []).push({ name, posts: [post] });
  }
  for (let i = 0; i < shape.workflowRunsPerDay; i++)
    (at(6 + i).workflows ??= []).push({ name: DIGEST_WORKFLOW.name, run: 1 });
  return hours;
}

/**
 * Generates the demo world of a seed; the same seed and size give the same state (and hash)
 * in a fresh process. (A second generation in one process differs: a few libraries keep
 * monotonic counters, e.g. ulid's, that carry over from the first.)
 */
type DemoOptions = { seed: number; size: DemoSize; progress?: (line: string) => void };

export async function generateDemoWorld(opts: DemoOptions): Promise<WorldState> {
  return (await generateDemoWorldWithKeys(opts)).state;
}

/**
 * The demo world and its agents' keys (`--keys-out`). The keys are made with the seeded
 * randomness too, so they open the world the state restores, wherever it is restored (the
 * world keeps only their digests).
 */
export async function generateDemoWorldWithKeys(opts: DemoOptions): Promise<{ state: WorldState; keys: SeedKeys }> {
  const progress = opts.progress ?? (() => {});
  const shape = SHAPES[opts.size];
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-demo-'));
  const clock = new ManualClock(START);
  const step = seededRandom(opts.seed ^ 0x5bd1e995);
  const text = new Text(seededRandom(opts.seed));
  try {
    return await deterministically(
      opts.seed,
      () => clock.ms(),
      async () => {
        const env: Record<string, string> = {
          HAMLET_DATA_DIR: dataDir,
          HAMLET_SERVICES: registeredServices().join(','),
          HAMLET_CONSOLE: 'off',
          HAMLET_LOG_LEVEL: 'silent',
          HAMLET_RATE_LIMITS: 'off',
          // A throwaway instance needs no record of its calls: no trace, and no writer thread
          // taking a core from the generation.
          HAMLET_TRACE: 'off',
          ...LINKS,
        };
        const { ports } = await configure(env, {});
        const { config, services } = await configure(
          { ...env, ...Object.fromEntries(ports.map((p) => [p.setting, '0'])) },
          {},
        );
        const hamlet = await startHamlet(config, {
          services,
          clock,
          logger: createLogger({ level: 'silent', pretty: false }),
        });
        try {
          // Each request moves time on a little, so records get distinct, ordered timestamps.
          const runner: ScenarioRunner = await seedScenarioRunner(hamlet.platform, hamlet.services, () =>
            clock.advance(1_000 + Math.floor(step() * 20_000)),
          );
          const agents = agentNames(shape.agents);
          const communities = TOPICS.slice(0, shape.communities);
          const sensors = Array.from({ length: shape.sensors }, (_, i) => `sensor.room_${i + 1}_temperature`);
          const sensorAttributes = sensors.map((_, i) => ({
            unit_of_measurement: '°C',
            device_class: 'temperature',
            friendly_name: `Room ${i + 1} temperature`,
          }));
          // The house's week goes through the home's seeder, not one API call per reading (the bulk of the large world).
          const recordHistory = hamlet.platform.world.seeder('home.history');
          if (!recordHistory) throw new Error('the demo world needs the home service running in this process');
          // Day zero, in the evening before the week: everyone arrives.
          progress(`demo world: ${agents.length} agents arrive`);
          clock.set(START - 6 * HOUR);
          await runner.apply({
            name: `demo-${opts.size}-${opts.seed}`,
            agents: agents.map((name, i) => ({
              name,
              mail: true,
              ...(i % 4 !== 3 ? { blog: { bio: text.bio() } } : {}),
              community: { description: text.bio() },
            })),
            communities: communities.map((name) => ({
              name,
              owner: text.pick(agents),
              description: `All about ${name}`,
            })),
            workflows: [{ definition: DIGEST_WORKFLOW }],
          });
          for (let day = 0; day < DAYS; day++) {
            const plan = planDay(text, shape, agents, communities, day);
            for (let hour = 0; hour < 24; hour++) {
              // The sensors' hour, recorded at once (each reading within a minute of its slot).
              const readings: Array<{
                entity_id: string;
                state: string;
                attributes: Record<string, unknown>;
                at: number;
              }> = [];
              const daylight = Math.sin(((hour - 6) / 24) * 2 * Math.PI);
              for (let r = 0; r < shape.readingsPerHour; r++) {
                const slot = START + day * 24 * HOUR + hour * HOUR + (r * HOUR) / shape.readingsPerHour;
                sensors.forEach((entity_id, i) =>
                  readings.push({
                    entity_id,
                    at: slot + text.int(60_000),
                    state: (19 + i * 0.3 + daylight * 2 + text.int(10) / 10).toFixed(1),
                    attributes: sensorAttributes[i],
                  }),
                );
              }
              await recordHistory(readings);
              clock.set(Math.max(clock.ms(), ...readings.map((r) => r.at)));
              const lights = hour === 7 || hour === 18 ? 'on' : hour === 9 || hour === 23 ? 'off' : undefined;
              if (lights)
                await runner.apply({
                  home: {
                    states: [
                      {
                        entity_id: 'light.living_room',
                        state: lights,
                        attributes: { friendly_name: 'Living room', brightness: 180 },
                      },
                      { entity_id: 'light.kitchen', state: lights, attributes: { friendly_name: 'Kitchen' } },
                    ],
                  },
                });
              const piece = plan.get(hour);
              if (piece) await runner.apply(piece);
            }
            progress(`demo world: day ${day + 1} of ${DAYS}`);
          }
          progress('demo world: waiting for the last jobs');
          const keys = await runner.finish();
          await hamlet.platform.jobs.idle(undefined, 60_000);
          // The world's own time travels with it: restored where the clock is controllable, the
          // clock resumes at the end of the demo week (and the recorder keeps its history).
          const state = {
            ...(await worldOf(hamlet.platform, services).read()),
            clock: { frozen: false, now: new Date(clock.ms()).toISOString() },
          };
          return { state, keys: structuredClone(keys) };
        } finally {
          await hamlet.stop();
        }
      },
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
