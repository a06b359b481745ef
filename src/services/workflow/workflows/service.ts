// Workflow writes: create, replace, patch, activate, deactivate, delete. Each write bumps
// versionId (so caches of the parsed workflow refresh) and tells every instance.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import { DomainError } from '../../../platform/errors.js';
import { isUniqueViolation } from '../../../platform/db.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { WorkflowNode } from '../engine/types.js';
import type { WorkflowRow, WorkflowStore } from '../store/index.js';
import { normaliseNodes, type PreparedWorkflow, type WorkflowCache } from './model.js';

/** A refusal in n8n's words, answered 400 with `{ message }`. */
const invalid = (message: string) => new DomainError('invalid', message);

/** The keys a workflow body may set; everything else in an export is ignored on create. */
const WRITABLE = [
  'name',
  'nodes',
  'connections',
  'settings',
  'staticData',
  'pinData',
  'nodeGroups',
  'description',
] as const;
const READ_ONLY = [
  'id',
  'active',
  'createdAt',
  'updatedAt',
  'tags',
  'isArchived',
  'versionId',
  'triggerCount',
  'meta',
  'activeVersion',
  'activeVersionId',
  'versionCounter',
  'shared',
  'parentFolder',
  'homeProject',
];

/**
 * n8n's answer to a body that names a read-only key (`request/body/active is read-only`) or
 * an unknown one: refused, never ignored, since a client that sends `active: false` in a PUT
 * expects the workflow to stop.
 */
function checkKeys(body: Record<string, unknown>, alsoWritable: string[]): void {
  for (const k of Object.keys(body)) {
    if ((WRITABLE as readonly string[]).includes(k) || alsoWritable.includes(k)) continue;
    if (READ_ONLY.includes(k)) throw invalid(`request/body/${k} is read-only`);
    throw invalid('request/body must NOT have additional properties');
  }
}

/** The ids `keepId` accepts: n8n's (16 letters and digits), older numeric ones, and ids safe in a URL path. */
const WORKFLOW_ID = /^[A-Za-z0-9_-]{1,64}$/;

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

function checkDefinition(body: Record<string, unknown>): void {
  if ('name' in body && (typeof body.name !== 'string' || body.name.trim() === ''))
    throw invalid('request/body/name must be string');
  // n8n's public API takes names longer than its editor's 128 characters (observed: 140); a bound stays.
  if ('name' in body && (body.name as string).length > 4096)
    throw invalid('request/body/name must NOT have more than 4096 characters');
  if ('nodes' in body) {
    if (!Array.isArray(body.nodes)) throw invalid('request/body/nodes must be array');
    const names = new Set<string>();
    (body.nodes as unknown[]).forEach((n, i) => {
      if (!n || typeof n !== 'object' || Array.isArray(n)) throw invalid(`request/body/nodes/${i} must be object`);
      const node = n as WorkflowNode;
      if (typeof node.name !== 'string' || !node.name)
        throw invalid(`request/body/nodes/${i} must have required property 'name'`);
      if (typeof node.type !== 'string' || !node.type)
        throw invalid(`request/body/nodes/${i} must have required property 'type'`);
      if (names.has(node.name))
        throw invalid(`request/body/nodes/${i}/name "${node.name}" is used by two nodes; node names must be unique`);
      names.add(node.name);
    });
  }
  if (
    'connections' in body &&
    (!body.connections || typeof body.connections !== 'object' || Array.isArray(body.connections))
  ) {
    throw invalid('request/body/connections must be object');
  }
  for (const k of ['settings', 'staticData', 'pinData'] as const) {
    if (k in body && body[k] !== null && (typeof body[k] !== 'object' || Array.isArray(body[k])))
      throw invalid(`request/body/${k} must be object`);
  }
}

/** The sub-workflows a workflow's enabled Execute Workflow nodes call by a fixed id (source "database"). */
function calledWorkflowIds(nodes: WorkflowNode[]): Array<{ node: string; id: string }> {
  const out: Array<{ node: string; id: string }> = [];
  for (const n of nodes) {
    if (n.type !== 'n8n-nodes-base.executeWorkflow' || n.disabled) continue;
    const p = (n.parameters ?? {}) as { source?: unknown; workflowId?: unknown };
    if ((p.source ?? 'database') !== 'database') continue;
    const ref =
      p.workflowId && typeof p.workflowId === 'object' ? (p.workflowId as { value?: unknown }).value : p.workflowId;
    const id = typeof ref === 'string' || typeof ref === 'number' ? String(ref).trim() : '';
    if (id && !id.startsWith('=')) out.push({ node: n.name, id });
  }
  return out;
}

/**
 * What a write needs of the triggers (triggers/activation.ts's Activation, handed in by index.ts):
 * refuse a workflow that cannot be activated, and re-read one that changed on every instance.
 * Declared here so workflows/ does not import triggers/, which imports workflows/.
 */
interface Activating {
  validate(p: PreparedWorkflow): void;
  changed(id: string): Promise<void>;
}

export class WorkflowWrites {
  constructor(
    private readonly store: WorkflowStore,
    private readonly cache: WorkflowCache,
    private readonly activation: Activating,
    private readonly clock: Clock,
    /** n8n's refusal to activate a workflow whose nodes lack their credentials (credentials/credentials.ts). */
    private readonly credentialProblem: (wf: { nodes: WorkflowNode[] }) => Promise<string | undefined> = async () =>
      undefined,
  ) {}

  /**
   * `keepId`: the workflow keeps the body's `id` (an export's), as n8n's `import:workflow` does,
   * so nodes that call it by id (Execute Workflow) still find it; otherwise the id is ignored
   * like the other read-only keys of an export, and a new one is made.
   */
  async create(body: Record<string, unknown>, opts: { keepId?: boolean } = {}): Promise<WorkflowRow> {
    for (const p of ['name', 'nodes', 'connections'])
      if (body[p] === undefined) throw invalid(`request/body must have required property '${p}'`);
    checkDefinition(body);
    if (opts.keepId && (typeof body.id !== 'string' || !WORKFLOW_ID.test(body.id))) {
      throw invalid('request/body/id must be a string of 1 to 64 letters, digits, "-" or "_" when keepId is true');
    }
    const now = this.clock.now().toISOString();
    const row: WorkflowRow = {
      id: opts.keepId ? (body.id as string) : randomBase62(16),
      name: body.name as string,
      active: 0,
      nodes: JSON.stringify(normaliseNodes(body.nodes as WorkflowNode[])),
      connections: JSON.stringify(body.connections),
      // A workflow created here without any settings is a new workflow: it gets v1 written
      // explicitly, as n8n's editor does. Settings that are given are stored as given, so an
      // n8n import whose settings lack executionOrder keeps running as v0, like n8n.
      settings: JSON.stringify(
        body.settings === undefined || body.settings === null ? { executionOrder: 'v1' } : body.settings,
      ),
      static_data: json(body.staticData),
      pin_data: json(body.pinData),
      meta: json(body.meta),
      description: typeof body.description === 'string' ? body.description : null,
      version_id: randomUUID(),
      active_version_id: null,
      version_counter: 1,
      trigger_count: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.store.insertWorkflow(row);
    } catch (e) {
      if (opts.keepId && isUniqueViolation(e))
        throw new DomainError('conflict', `A workflow with the id "${row.id}" already exists`);
      throw e;
    }
    return row;
  }

  /** PATCH: only the given keys change; `active` (de)activates after the definition is applied. */
  async patch(row: WorkflowRow, body: Record<string, unknown>): Promise<WorkflowRow> {
    // PATCH is the contract's: `active` and `tags` (set by the route) are writable here.
    checkKeys(body, ['active', 'tags']);
    if ('active' in body && typeof body.active !== 'boolean') throw invalid('request/body/active must be boolean');
    checkDefinition(body);
    const patch: Partial<WorkflowRow> = {};
    if ('name' in body) patch.name = body.name as string;
    if ('nodes' in body) patch.nodes = JSON.stringify(normaliseNodes(body.nodes as WorkflowNode[]));
    if ('connections' in body) patch.connections = JSON.stringify(body.connections);
    if ('settings' in body) patch.settings = JSON.stringify(body.settings ?? {});
    if ('staticData' in body) patch.static_data = json(body.staticData);
    if ('pinData' in body) patch.pin_data = json(body.pinData);
    if ('description' in body) patch.description = typeof body.description === 'string' ? body.description : null;
    let next = row;
    if (Object.keys(patch).length) next = await this.write(row, patch);
    if (body.active === true) return this.activate(next);
    if (body.active === false) return this.deactivate(next);
    return next;
  }

  /** PUT: a full replace of name, nodes, connections and settings. */
  async replace(row: WorkflowRow, body: Record<string, unknown>): Promise<WorkflowRow> {
    for (const p of ['name', 'nodes', 'connections', 'settings'])
      if (body[p] === undefined) throw invalid(`request/body must have required property '${p}'`);
    checkKeys(body, []);
    checkDefinition(body);
    return this.write(row, {
      name: body.name as string,
      nodes: JSON.stringify(normaliseNodes(body.nodes as WorkflowNode[])),
      connections: JSON.stringify(body.connections),
      settings: JSON.stringify(body.settings ?? {}),
      static_data: 'staticData' in body ? json(body.staticData) : row.static_data,
      pin_data: 'pinData' in body ? json(body.pinData) : row.pin_data,
      description:
        'description' in body ? (typeof body.description === 'string' ? body.description : null) : row.description,
    });
  }

  async activate(row: WorkflowRow): Promise<WorkflowRow> {
    const candidate = { ...row, active: 1 };
    await this.checkPublishable(candidate);
    return this.write(row, { active: 1, active_version_id: row.version_id }, false);
  }

  async deactivate(row: WorkflowRow): Promise<WorkflowRow> {
    return this.write(row, { active: 0, active_version_id: null }, false);
  }

  async remove(row: WorkflowRow): Promise<void> {
    await this.store.deleteWorkflow(row.id);
    this.cache.drop(row.id);
    await this.activation.changed(row.id);
  }

  /** What n8n checks before it publishes a workflow: credentials, triggers, and the sub-workflows it calls. */
  private async checkPublishable(row: WorkflowRow): Promise<void> {
    const prepared = this.cache.get(row);
    const problem = await this.credentialProblem(prepared.definition);
    if (problem) throw invalid(problem);
    this.activation.validate(prepared);
    await this.checkSubWorkflows(row.id, prepared.definition.nodes);
  }

  /**
   * n8n 2.x publishes a workflow only when every sub-workflow it calls by a fixed id is published
   * (oracle: engine-subworkflow-database-unpublished, -missing). Ids given by an expression are
   * known only at run time, and a workflow calling itself is being published now.
   */
  private async checkSubWorkflows(selfId: string, nodes: WorkflowNode[]): Promise<void> {
    for (const { node, id } of calledWorkflowIds(nodes)) {
      if (id === selfId) continue;
      const sub = await this.store.getWorkflow(id);
      // n8n's words, with the sub-workflow's name when it exists.
      if (sub?.active !== 1)
        throw invalid(
          `Cannot publish workflow: Node "${node}" references workflow ${id}${sub ? ` ("${sub.name}")` : ''} which is not published. Please publish all referenced sub-workflows first.`,
        );
    }
  }

  private async write(row: WorkflowRow, patch: Partial<WorkflowRow>, newVersion = true): Promise<WorkflowRow> {
    const now = this.clock.now().toISOString();
    const next: WorkflowRow = { ...row, ...patch, updated_at: now };
    if (newVersion) {
      next.version_id = randomUUID();
      next.version_counter = row.version_counter + 1;
    }
    // Saving an active workflow re-validates and re-registers its triggers (n8n republishes).
    if (next.active === 1 && newVersion) {
      await this.checkPublishable(next);
      next.active_version_id = next.version_id;
    }
    const { id: _id, ...rest } = next;
    await this.store.updateWorkflow(row.id, rest);
    if (row.active === 1 || next.active === 1) await this.activation.changed(row.id);
    return next;
  }
}
