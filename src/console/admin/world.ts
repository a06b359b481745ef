// The world admin API: save, list, download and restore snapshots, reset, the state hash and
// the diff between two states (docs/harness.md, "Worlds").
//
// What reads a whole world or a whole file (saving now, the hash, checking an upload, a diff
// page) runs on the world worker (world/worker-client.ts), streamed: no world or file size
// stalls the services. Uploads go to disk as they arrive and are checked there under the
// limits (world/settings.ts). A restore checks everything before it replaces anything.
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import type { Static } from '@sinclair/typebox';
import { HttpError } from '../../platform/errors.js';
import type { ConsoleModule } from '../context.js';
import { decodeCursor, type DiffRefs } from '../world/diff.js';
import { WorldFileError, type FileLimits, type WorldHeader } from '../world/file.js';
import { OneAtATime, worldOf } from '../world/index.js';
import { ScenarioError } from '../world/scenario.js';
import { scenarioFromRequest } from '../world/scenario-source.js';
import { peopleOf } from '../people/engine.js';
import { seedScenario } from '../world/seed.js';
import { SnapshotFiles, type SnapshotInfo } from '../world/snapshots.js';
import { WorldWorker } from '../world/worker-client.js';
import {
  ConsoleError,
  Diff,
  DiffQuery,
  Hash,
  Reset,
  Restored,
  Seeded,
  SeedQuery,
  SnapshotFile,
  SnapshotId,
  SnapshotInfo as SnapshotInfoSchema,
  SnapshotList,
} from './world-schemas.js';

/** Where an upload's stream is in the parsed body. */
const UPLOAD = Symbol('snapshot upload');

/** States saved as "now" for diffs are kept apart from the list, the newest few. */
const NOW_KEPT = 8;

export const worldAdmin: ConsoleModule = (app, ctx) => {
  const settings = ctx.settings.world;
  const limits: FileLimits = settings;
  const world = worldOf(ctx.platform, ctx.selected);
  const files = SnapshotFiles.inDataDir(ctx.platform.config.dataDir, limits, ctx.platform.logger);
  const nowFiles = new SnapshotFiles(`${files.dir}/now`, limits, ctx.platform.logger);
  const worker = new WorldWorker();
  app.addHook('onClose', () => worker.close());
  const serial = new OneAtATime();
  const notFound = (id: string) => new HttpError(404, `No snapshot ${id}`, 'not_found');
  const now = () => ctx.platform.clock.now().toISOString();

  /** Saves the world now into a folder through the worker; without a folder, only its hash. */
  async function saveNow(into: SnapshotFiles, name?: string): Promise<SnapshotInfo> {
    const out = await into.incoming();
    try {
      const header = await worker.run<WorldHeader>({ kind: 'save', ...(await world.saveTask(now(), name)), out });
      return await into.adopt(out, header);
    } catch (err) {
      await into.discard(out);
      throw err;
    }
  }
  const hashNow = async () => (await worker.run<WorldHeader>({ kind: 'save', ...(await world.saveTask(now())) })).hash;

  // An uploaded snapshot file (what GET …/snapshots/{id} downloads) is taken as a stream, held
  // under a symbol so the body checks (platform/http.ts) do not walk the stream as JSON.
  app.addContentTypeParser(['application/gzip', 'application/octet-stream'], (_request, payload, done) =>
    done(null, { [UPLOAD]: payload }),
  );

  /**
   * Writes an upload to a file in the folder, refusing it past HAMLET_WORLD_MAX_FILE. A refused
   * upload is left unread (not destroyed), so the 413 still reaches the client before the
   * connection closes.
   */
  async function receive(body: Readable, declared: number | undefined): Promise<string> {
    const tooLarge = () => WorldFileError.tooLarge('the file', settings.maxFileBytes, 'HAMLET_WORLD_MAX_FILE');
    if (declared !== undefined && declared > settings.maxFileBytes) throw tooLarge();
    const out = await files.incoming();
    const file = createWriteStream(out);
    let bytes = 0;
    try {
      await new Promise<void>((resolve, reject) => {
        const fail = (err: Error) => {
          body.unpipe(file);
          body.pause();
          file.destroy();
          reject(err);
        };
        body.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (bytes > settings.maxFileBytes) fail(tooLarge());
        });
        body.on('error', fail);
        body.on('aborted', () => fail(new Error('the upload was cut off')));
        file.on('error', fail);
        file.on('finish', resolve);
        body.pipe(file);
      });
      return out;
    } catch (err) {
      // Removed once closed: a stream still opening would make the file again after the removal.
      if (!file.closed) await once(file, 'close');
      await files.discard(out);
      throw err;
    }
  }

  app.get('/admin/api/world/hash', { schema: { response: { 200: Hash } } }, async () => ({ hash: await hashNow() }));

  app.get('/admin/api/world/snapshots', { schema: { response: { 200: SnapshotList } } }, async () => ({
    snapshots: await files.list(),
  }));

  app.post(
    '/admin/api/world/snapshots',
    {
      schema: {
        description:
          'Saves the world as it is now (JSON body {name?}), or adds an uploaded snapshot file (a gzip body)',
        response: { 201: SnapshotInfoSchema, 400: ConsoleError, 413: ConsoleError },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const upload = (body as { [UPLOAD]?: Readable } | undefined)?.[UPLOAD];
      if (upload) {
        const declared = request.headers['content-length'] ? Number(request.headers['content-length']) : undefined;
        let file: string;
        try {
          file = await receive(upload, declared);
        } catch (err) {
          // The rest of an upload refused part-way is not read: the connection closes after the answer.
          if (err instanceof HttpError) reply.header('connection', 'close');
          throw err;
        }
        try {
          const header = await worker.run<WorldHeader>({ kind: 'verify', file, limits });
          return reply.code(201).send(await files.adopt(file, header));
        } catch (err) {
          await files.discard(file);
          throw err;
        }
      }
      const name = (body as { name?: unknown } | undefined)?.name;
      if (name !== undefined && (typeof name !== 'string' || name.length > 200))
        return reply.code(400).send({ message: 'name must be a text of at most 200 characters', code: 'invalid' });
      return reply.code(201).send(await saveNow(files, name));
    },
  );

  app.get(
    '/admin/api/world/snapshots/:id',
    { schema: { params: SnapshotId, response: { 200: SnapshotFile, 404: ConsoleError } } },
    async (request, reply) => {
      const { id } = request.params;
      const file = files.open(id);
      if (!file) throw notFound(id);
      return reply
        .type('application/gzip')
        .header('content-disposition', `attachment; filename="world-${id}.jsonl.gz"`)
        .send(file as unknown as string);
    },
  );

  app.post(
    '/admin/api/world/snapshots/:id/restore',
    {
      schema: {
        params: SnapshotId,
        response: { 200: Restored, 400: ConsoleError, 404: ConsoleError, 413: ConsoleError },
      },
    },
    async (request) => {
      const { id } = request.params;
      const loading = files.load(id);
      if (!loading) throw notFound(id);
      const saved = await loading;
      const { skipped, dropped } = await serial.run(() => world.restore(saved.state));
      return { id, hash: await hashNow(), saved: saved.header.hash, skipped, dropped, epoch: ctx.platform.trace.epoch };
    },
  );

  app.post('/admin/api/world/reset', { schema: { response: { 200: Reset } } }, async () => {
    await serial.run(() => world.reset());
    return { hash: await hashNow(), epoch: ctx.platform.trace.epoch };
  });

  // A scenario in YAML (text/yaml) or as JSON, or one by name (?example=, ?file=): its workflow
  // files are read relative to the scenario file (world/scenario-source.ts). All or nothing: a
  // scenario refused half-way leaves the world as it was (world/seed.ts).
  app.addContentTypeParser(
    ['text/yaml', 'application/yaml', 'application/x-yaml'],
    { parseAs: 'string' },
    (_req, body, done) => done(null, body),
  );
  app.post(
    '/admin/api/world/seed',
    {
      schema: {
        description:
          'Seeds the world from a scenario (YAML or JSON body, or ?example=<name> / ?file=<path in HAMLET_SCENARIO_DIR>); answers the keys it made',
        querystring: SeedQuery,
        response: { 200: Seeded, 400: ConsoleError },
      },
    },
    async (request, reply) => {
      let keys;
      try {
        const { scenario, files } = scenarioFromRequest(request.body, request.query, settings.scenarioDir);
        keys = await serial.run(async () => {
          const seeded = await seedScenario(ctx.platform, ctx.running, scenario, files, world);
          // The scenario's simulated people start acting once their accounts exist (people/engine.ts).
          if (scenario.people?.length) await peopleOf(ctx.platform, Object.keys(ctx.running)).arm(scenario.people);
          return seeded;
        });
      } catch (err) {
        if (err instanceof ScenarioError)
          return reply.code(400).send({ message: err.message, code: 'invalid_scenario' });
        throw err;
      }
      return { ...keys, hash: await hashNow() };
    },
  );

  /** A side of a diff: a saved snapshot, or the world now (saved apart, so later pages see the same state). */
  async function side(ref: string, pinned: string | undefined): Promise<{ file: string; ref: string }> {
    if (pinned?.startsWith('now:')) {
      const file = nowFiles.path(pinned.slice(4));
      if (!file)
        throw new HttpError(
          410,
          'the state this cursor pages through is no longer kept; ask for the diff again',
          'cursor_expired',
        );
      return { file, ref: pinned };
    }
    if (ref === 'now') {
      const info = await saveNow(nowFiles);
      await nowFiles.prune(NOW_KEPT);
      return { file: nowFiles.path(info.id)!, ref: `now:${info.id}` };
    }
    const file = files.path(ref);
    if (!file) throw notFound(ref);
    return { file, ref };
  }

  app.get(
    '/admin/api/world/diff',
    {
      schema: {
        querystring: DiffQuery,
        response: { 200: Diff, 400: ConsoleError, 404: ConsoleError, 410: ConsoleError },
      },
    },
    async (request, reply) => {
      const q = request.query;
      const labels: DiffRefs = { from: q.from, to: q.to ?? 'now' };
      const limit = q.limit ?? settings.diffPage;
      if (limit > settings.diffPage)
        throw new HttpError(
          400,
          `limit must be at most ${settings.diffPage} (HAMLET_WORLD_DIFF_PAGE)`,
          'validation_error',
        );
      let cursor: ReturnType<typeof decodeCursor>;
      if (q.cursor !== undefined) {
        cursor = decodeCursor(q.cursor);
        const belongs = (label: string, ref: string | undefined) =>
          ref !== undefined && (label === 'now' ? ref.startsWith('now:') : ref === label);
        if (!cursor || !belongs(labels.from, cursor.from) || !belongs(labels.to, cursor.to))
          throw new HttpError(400, 'cursor is not a `next` of this diff (same from and to)', 'validation_error');
      }
      const from = await side(labels.from, cursor?.from);
      const to = await side(labels.to, cursor?.to);
      const body = await worker.run<string>({
        kind: 'diff',
        from: from.file,
        to: to.file,
        labels,
        refs: { from: from.ref, to: to.ref },
        ...(q.service ? { service: q.service } : {}),
        ...(q.table ? { table: q.table } : {}),
        ...(cursor ? { after: cursor.at } : {}),
        limit,
        pageBytes: settings.diffPageBytes,
        limits,
      });
      // Already serialized (canonical JSON, by the worker): Fastify sends a string as it is.
      return reply.type('application/json; charset=utf-8').send(body as unknown as Static<typeof Diff>);
    },
  );
};
