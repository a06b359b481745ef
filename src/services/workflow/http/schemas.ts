// The shapes of n8n's public API (/api/v1) as this service answers them, for /docs/json and
// for Fastify's response serializer. A property missing from a response schema would be
// dropped from the answer, so every object keeps additionalProperties and the parts that are
// the user's own JSON (nodes, connections, settings, static and pinned data, run data) are
// left free-form.
import { Type, type TSchema } from '@sinclair/typebox';

const nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const open = { additionalProperties: true };
/** Any JSON the user wrote (serialized as is). */
const json = (description: string) => Type.Unknown({ description });

/** n8n's error body; the webhook 404s add `code` and `hint`. */
const ErrorBody = Type.Object({ message: Type.String() }, open);

/** The error answers a route gives, all in n8n's `{ message }` envelope. */
export function errors(...statuses: Array<400 | 401 | 404 | 409>): Record<number, typeof ErrorBody> {
  return Object.fromEntries([401, ...statuses].map((s) => [s, ErrorBody]));
}

export const IdParams = Type.Object({ id: Type.String() });

export const Tag = Type.Object(
  {
    id: Type.String(),
    name: Type.String({ maxLength: 24 }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  open,
);

export const TagBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 24 }) }, open);

export const Workflow = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    active: Type.Boolean(),
    isArchived: Type.Boolean(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    nodes: json('n8n nodes, as given (unknown keys kept)'),
    connections: json('n8n connections by source node name'),
    settings: json('workflow settings (executionOrder, timezone, errorWorkflow, …)'),
    staticData: json('what the workflow keeps between runs ($getWorkflowStaticData), or null'),
    meta: json('n8n editor metadata, or null'),
    pinData: json('pinned node output used by manual runs, or null'),
    description: nullable(Type.String()),
    versionId: Type.String(),
    activeVersionId: nullable(Type.String()),
    versionCounter: Type.Integer(),
    triggerCount: Type.Integer(),
    tags: Type.Array(Tag),
    shared: json(
      "n8n's ownership: [{role: 'workflow:owner', projectId, project: {id, name, type: 'personal'}, createdAt, updatedAt, workflowId}]",
    ),
    activeVersion: json('the active version (versionId, nodes, connections, …), or null when inactive'),
  },
  open,
);

/** Workflow bodies are n8n exports: only the listed keys are read, others are ignored (PUT refuses unknown ones). */
export const WorkflowBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 4096 }),
    nodes: Type.Array(Type.Object({ name: Type.String(), type: Type.String() }, open)),
    connections: Type.Object({}, open),
    settings: Type.Optional(nullable(Type.Object({}, open))),
    staticData: Type.Optional(nullable(Type.Object({}, open))),
    pinData: Type.Optional(nullable(Type.Object({}, open))),
    description: Type.Optional(nullable(Type.String())),
  },
  open,
);

export const WorkflowPatch = Type.Partial(
  Type.Composite([WorkflowBody, Type.Object({ active: Type.Boolean() })]),
  open,
);

export const TransferBody = Type.Object({ destinationProjectId: Type.String() }, open);

export const WorkflowCreateQuery = Type.Object({
  keepId: Type.Optional(
    Type.Boolean({
      description:
        "create the workflow under the body's `id` (as n8n's `import:workflow` does), so Execute Workflow nodes that name it by id keep working; 409 when the id is taken",
    }),
  ),
});

export const WorkflowListQuery = Type.Object({
  projectId: Type.Optional(
    Type.String({ description: "only workflows of this project (there is one: the owner's personal project)" }),
  ),
  active: Type.Optional(Type.Boolean()),
  name: Type.Optional(Type.String()),
  tags: Type.Optional(Type.String({ description: 'comma-separated tag names' })),
  excludePinnedData: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
});

export const ExecuteBody = Type.Object(
  {
    data: Type.Optional(Type.Object({}, { ...open, description: 'the json of the one start item' })),
    inputData: Type.Optional(
      Type.Union([Type.Object({}, open), Type.Array(Type.Object({}, open), { minItems: 1 })], {
        description:
          "the start items: an object (one item's json) or an array of objects or n8n items ({json, binary?}); not with data",
      }),
    ),
  },
  { additionalProperties: false },
);

export const TagRefs = Type.Array(Type.Object({ id: Type.String() }, open));

const executionFields = {
  id: Type.String(),
  finished: Type.Boolean(),
  mode: Type.String(),
  retryOf: nullable(Type.String()),
  retrySuccessId: nullable(Type.String()),
  status: Type.String(),
  startedAt: nullable(Type.String()),
  stoppedAt: nullable(Type.String()),
  workflowId: Type.String(),
  waitTill: nullable(Type.String()),
};

/** With `includeData` (and from /execute) the run data rides along. */
export const Execution = Type.Object(
  {
    ...executionFields,
    data: Type.Optional(json('run data per node (n8n IRunExecutionData)')),
    workflowData: Type.Optional(json('the workflow as it ran')),
    customData: Type.Optional(json('custom execution data')),
    createdAt: Type.Optional(Type.String()),
    deletedAt: Type.Optional(Type.Null()),
    storedAt: Type.Optional(Type.String()),
  },
  open,
);

export const ExecutionListQuery = Type.Object({
  projectId: Type.Optional(Type.String({ description: 'only executions of workflows of this project' })),
  workflowId: Type.Optional(Type.String()),
  status: Type.Optional(Type.Union(['canceled', 'error', 'running', 'success', 'waiting'].map((s) => Type.Literal(s)))),
  includeData: Type.Optional(Type.Boolean()),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
});

export const IncludeDataQuery = Type.Object({ includeData: Type.Optional(Type.Boolean()) });

export const RetryBody = Type.Object(
  {
    loadWorkflow: Type.Optional(
      Type.Boolean({ description: 'run the current workflow instead of the one the execution ran' }),
    ),
  },
  open,
);

export const StopManyBody = Type.Object(
  {
    status: Type.Array(Type.Union(['queued', 'running', 'waiting'].map((s) => Type.Literal(s))), { minItems: 1 }),
    workflowId: Type.Optional(Type.String()),
    startedAfter: Type.Optional(Type.String({ format: 'date-time' })),
    startedBefore: Type.Optional(Type.String({ format: 'date-time' })),
  },
  open,
);

export const StopManyAnswer = Type.Object({ stopped: Type.Integer() }, open);

export const TagListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 250, description: 'default 100' })),
  cursor: Type.Optional(Type.String({ description: 'nextCursor of the previous page' })),
});

/** n8n's list page: the items and the cursor of the next page (null on the last). */
export const Page = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), nextCursor: nullable(Type.String()) }, open);
