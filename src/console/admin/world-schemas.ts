// Request and response schemas of the world admin API (they document it in /docs/json).
import { Type } from '@sinclair/typebox';

export const ConsoleError = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });

// No pattern here: a malformed id is simply an unknown snapshot (404), and a form post's CSRF
// check (in preHandler) must come before any validation answers.
export const SnapshotId = Type.Object({
  id: Type.String({ description: 'The first 16 hex digits of the state hash' }),
});

const ClockState = Type.Object({ frozen: Type.Boolean(), now: Type.String() });

export const SnapshotInfo = Type.Object({
  id: Type.String(),
  hash: Type.String({ description: 'SHA-256 of the canonical rows (sorted by primary key, canonical JSON)' }),
  savedAt: Type.String(),
  name: Type.Optional(Type.String()),
  bytes: Type.Integer(),
  rows: Type.Integer(),
  clock: Type.Optional(ClockState),
});

export const Hash = Type.Object({ hash: Type.String() });

export const SnapshotList = Type.Object({ snapshots: Type.Array(SnapshotInfo) });

export const Restored = Type.Object({
  id: Type.String(),
  hash: Type.String({ description: 'The hash of the world after the restore' }),
  saved: Type.String({ description: 'The hash the snapshot was saved with' }),
  skipped: Type.Array(Type.String(), {
    description: 'Tables of the snapshot this database does not have (services not running here)',
  }),
  dropped: Type.Integer({
    description:
      "Rows of the snapshot that belong to the instance (admin keys, the console's own keys): never taken from a file",
  }),
  epoch: Type.Integer({
    description: 'The trace epoch the restore started: GET /admin/api/trace?epoch=<it> reads what happened since',
  }),
});

export const Reset = Type.Object({
  hash: Type.String(),
  epoch: Type.Integer({ description: 'The trace epoch the reset started' }),
});

export const DiffQuery = Type.Object(
  {
    from: Type.String({ minLength: 1, maxLength: 64, description: 'A snapshot id, or "now"' }),
    to: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'A snapshot id, or "now" (the default)' }),
    ),
    service: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Only this service (its tables), e.g. mail or platform',
      }),
    ),
    table: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Only this table' })),
    cursor: Type.Optional(
      Type.String({ minLength: 1, maxLength: 1024, description: 'The `next` of the previous page' }),
    ),
    limit: Type.Optional(
      Type.Integer({
        minimum: 1,
        description: 'Changes in this page at most (default and most: HAMLET_WORLD_DIFF_PAGE, 1000)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Change = Type.Object(
  { table: Type.String(), key: Type.Record(Type.String(), Type.Unknown()) },
  { additionalProperties: true },
);
const ServiceChanges = Type.Object({
  added: Type.Array(Change),
  changed: Type.Array(Change),
  removed: Type.Array(Change),
});

export const Diff = Type.Object({
  from: Type.String(),
  to: Type.String(),
  fromHash: Type.String(),
  toHash: Type.String({
    description: 'With to=now: the hash of the state saved for this diff (its later pages compare the same state)',
  }),
  services: Type.Record(Type.String(), ServiceChanges),
  next: Type.Optional(
    Type.String({
      description:
        'More changes follow: pass this as cursor (with the same from, to, service and table) for the next page',
    }),
  ),
});

export const Seeded = Type.Object({
  scenario: Type.Optional(Type.String()),
  agents: Type.Record(Type.String(), Type.Record(Type.String(), Type.Record(Type.String(), Type.String())), {
    description: 'Per agent, per service: its key and its handle (inbox, slug, name)',
  }),
  hash: Type.String(),
});

/** A snapshot file: gzip'd JSON Lines (docs/harness.md). */
export const SnapshotFile = Type.String({ format: 'binary', description: 'gzip-compressed JSON Lines' });

export const SeedQuery = Type.Object(
  {
    example: Type.Optional(
      Type.String({ maxLength: 64, description: 'A scenario Hamlet ships (examples/scenarios/<example>.yaml)' }),
    ),
    file: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'A scenario file inside HAMLET_SCENARIO_DIR; its workflow files are relative to it',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AgentName = Type.Object({ agent: Type.String({ minLength: 1, maxLength: 64 }) });

export const AgentKeysQuery = Type.Object(
  {
    services: Type.Optional(
      Type.String({
        maxLength: 200,
        description: 'Comma-separated: only these services (mail, blog, community, home, workflow)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const AgentKeysAnswer = Type.Object({
  agent: Type.String(),
  keys: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
    description: 'Per service: a new key of the agent and its handle (inbox, slug, name)',
  }),
});
