// The world admin API: save, list, download and restore snapshots, reset, the state hash and
// the diff between two states (docs/harness.md, "Worlds").
import { ConsoleError, Diff, DiffQuery, Hash, Restored, Seeded, SnapshotFile, SnapshotId, SnapshotInfo, SnapshotList } from './world-schemas.js';
import type { Static } from '@sinclair/typebox';
import type { ConsoleModule } from '../context.js';
import { canonicalJson } from '../world/canonical.js';
import { diffWorlds } from '../world/diff.js';
import { decodeWorld, WorldFileError } from '../world/file.js';
import { OneAtATime, worldOf } from '../world/index.js';
import { parseScenario, ScenarioError } from '../world/scenario.js';
import { seedScenario } from '../world/seed.js';
import { SnapshotFiles } from '../world/snapshots.js';
import { stateHash, type WorldState } from '../world/state.js';

export const worldAdmin: ConsoleModule = (app, ctx) => {
  const world = worldOf(ctx.platform, ctx.selected);
  const files = SnapshotFiles.inDataDir(ctx.platform.config.dataDir);
  const serial = new OneAtATime();
  const notFound = (id: string) => ({ message: `No snapshot ${id}`, code: 'not_found' });
  const now = () => ctx.platform.clock.now().toISOString();

  // Uploading a snapshot file (what GET …/snapshots/{id} downloads) adds it to the list.
  app.addContentTypeParser(['application/gzip', 'application/octet-stream'], { parseAs: 'buffer', bodyLimit: 512 * 1024 * 1024 }, (_req, body, done) => done(null, body));

  app.get('/admin/api/world/hash', { schema: { response: { 200: Hash } } }, async () => serial.run(async () => ({ hash: await world.hash() })));

  app.get('/admin/api/world/snapshots', { schema: { response: { 200: SnapshotList } } }, async () => ({ snapshots: files.list() }));

  app.post(
    '/admin/api/world/snapshots',
    {
      schema: {
        description: 'Saves the world as it is now (JSON body {name?}), or adds an uploaded snapshot file (a gzip body)',
        response: { 201: SnapshotInfo, 400: ConsoleError },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (Buffer.isBuffer(body)) {
        let decoded: ReturnType<typeof decodeWorld>;
        try {
          decoded = decodeWorld(body);
        } catch (err) {
          if (err instanceof WorldFileError) return reply.code(400).send({ message: err.message, code: 'invalid_snapshot' });
          throw err;
        }
        return reply.code(201).send(files.save(decoded.state, decoded.header.savedAt, decoded.header.name));
      }
      const name = (body as { name?: unknown } | undefined)?.name;
      if (name !== undefined && (typeof name !== 'string' || name.length > 200)) return reply.code(400).send({ message: 'name must be a text of at most 200 characters', code: 'invalid' });
      const state = await serial.run(() => world.read());
      return reply.code(201).send(files.save(state, now(), name as string | undefined));
    },
  );

  app.get('/admin/api/world/snapshots/:id', { schema: { params: SnapshotId, response: { 200: SnapshotFile, 404: ConsoleError } } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const file = files.file(id);
    if (!file) return reply.code(404).send(notFound(id));
    return reply.type('application/gzip').header('content-disposition', `attachment; filename="world-${id}.jsonl.gz"`).send(file as unknown as string);
  });

  app.post('/admin/api/world/snapshots/:id/restore', { schema: { params: SnapshotId, response: { 200: Restored, 404: ConsoleError } } }, async (request, reply) => {
    const { id } = request.params as { id: string };
    const saved = files.load(id);
    if (!saved) return reply.code(404).send(notFound(id));
    const { skipped } = await serial.run(() => world.restore(saved.state));
    return { id, hash: await serial.run(() => world.hash()), saved: saved.header.hash, skipped };
  });

  app.post('/admin/api/world/reset', { schema: { response: { 200: Hash } } }, async () => {
    await serial.run(() => world.reset());
    return { hash: await serial.run(() => world.hash()) };
  });

  // A scenario in YAML (text/yaml) or as JSON; workflow files are read relative to the data directory.
  app.addContentTypeParser(['text/yaml', 'application/yaml', 'application/x-yaml'], { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.post('/admin/api/world/seed', { schema: { description: 'Seeds the world from a scenario (YAML or JSON body); answers the keys it made', response: { 200: Seeded, 400: ConsoleError } } }, async (request, reply) => {
    let keys;
    try {
      const scenario = typeof request.body === 'string' ? parseScenario(request.body) : parseScenario(JSON.stringify(request.body ?? null));
      keys = await serial.run(() => seedScenario(ctx.platform, ctx.running, scenario, ctx.platform.config.dataDir));
    } catch (err) {
      if (err instanceof ScenarioError) return reply.code(400).send({ message: err.message, code: 'invalid_scenario' });
      throw err;
    }
    return { ...keys, hash: await serial.run(() => world.hash()) };
  });

  app.get(
    '/admin/api/world/diff',
    { schema: { querystring: DiffQuery, response: { 200: Diff, 404: ConsoleError } } },
    async (request, reply) => {
      const q = request.query as { from: string; to?: string };
      const states: WorldState[] = [];
      for (const ref of [q.from, q.to ?? 'now']) {
        if (ref === 'now') states.push(await serial.run(() => world.read()));
        else {
          const saved = files.load(ref);
          if (!saved) return reply.code(404).send(notFound(ref));
          states.push(saved.state);
        }
      }
      const [from, to] = states as [WorldState, WorldState];
      // Canonical JSON: byte columns as {"$base64"}, like the snapshot file.
      const body = canonicalJson({ from: q.from, to: q.to ?? 'now', fromHash: stateHash(from), toHash: stateHash(to), services: diffWorlds(from, to) });
      // Already serialized: Fastify sends a string as it is.
      return reply.type('application/json; charset=utf-8').send(body as unknown as Static<typeof Diff>);
    },
  );
};
