// Workflows as stored rows, as the engine reads them, and as the API shows them.
import { randomUUID } from 'node:crypto';
import { buildGraph, type Graph } from '../engine/graph.js';
import type { Connections, WorkflowDefinition, WorkflowNode, WorkflowSettings } from '../engine/types.js';
import type { TagRow, WorkflowRow } from '../store/index.js';

const parse = <T>(text: string | null, fallback: T): T => {
  if (text === null || text === undefined) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
};

function rowToDefinition(row: WorkflowRow): WorkflowDefinition {
  return {
    id: row.id,
    name: row.name,
    active: row.active === 1,
    nodes: parse<WorkflowNode[]>(row.nodes, []),
    connections: parse<Connections>(row.connections, {}),
    settings: parse<WorkflowSettings>(row.settings, {}),
    staticData: parse(row.static_data, null),
    pinData: parse(row.pin_data, null),
    versionId: row.version_id,
  };
}

/** A tag as the API shows it (http/schemas.ts Tag). */
export interface TagJson {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
}

/** A workflow as the API shows it (http/schemas.ts Workflow); the JSON parts are the user's own. */
export interface WorkflowJson {
  id: string;
  name: string;
  active: boolean;
  isArchived: boolean;
  createdAt: string;
  updatedAt: string;
  nodes: WorkflowNode[];
  connections: Connections;
  settings: unknown;
  staticData: unknown;
  meta: unknown;
  pinData: unknown;
  description: string | null;
  versionId: string;
  activeVersionId: string | null;
  versionCounter: number;
  triggerCount: number;
  tags: TagJson[];
  shared: unknown[];
  activeVersion: Record<string, unknown> | null;
}

export function tagToApi(t: TagRow): TagJson {
  return { id: t.id, name: t.name, createdAt: t.created_at, updatedAt: t.updated_at };
}

/** `shared` is n8n's ownership list (projects/owner.ts); the engine's own uses pass none. */
export function workflowToApi(row: WorkflowRow, tags: TagRow[] = [], shared: unknown[] = []): WorkflowJson {
  const nodes = parse<WorkflowNode[]>(row.nodes, []);
  const connections = parse<Connections>(row.connections, {});
  const active = row.active === 1;
  return {
    id: row.id,
    name: row.name,
    active,
    isArchived: false,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    nodes,
    connections,
    settings: parse(row.settings, {}),
    staticData: parse(row.static_data, null),
    meta: parse(row.meta, null),
    pinData: parse(row.pin_data, null),
    description: row.description,
    versionId: row.version_id,
    activeVersionId: row.active_version_id,
    versionCounter: row.version_counter,
    triggerCount: row.trigger_count,
    tags: tags.map(tagToApi),
    shared,
    activeVersion: active
      ? {
          versionId: row.active_version_id,
          workflowId: row.id,
          nodes,
          connections,
          name: row.name,
          authors: '',
          createdAt: row.updated_at,
          updatedAt: row.updated_at,
          workflowPublishHistory: [],
        }
      : null,
  };
}

/** Nodes as given, with missing ids filled in (n8n does the same). Unknown keys are kept. */
export function normaliseNodes(nodes: WorkflowNode[]): WorkflowNode[] {
  return nodes.map((n) => (n.id ? n : { ...n, id: randomUUID() }));
}

/** The parsed form of one workflow version, cached so hot paths never re-parse JSON. */
export interface PreparedWorkflow {
  definition: WorkflowDefinition;
  graph: Graph;
  /** JSON of the snapshot stored with each execution (workflowData). */
  snapshot: string;
}

export function prepare(row: WorkflowRow): PreparedWorkflow {
  const definition = rowToDefinition(row);
  return {
    definition,
    graph: buildGraph(definition),
    snapshot: JSON.stringify({
      id: row.id,
      name: row.name,
      active: definition.active,
      nodes: definition.nodes,
      connections: definition.connections,
      settings: definition.settings,
      staticData: definition.staticData,
      pinData: definition.pinData,
      versionId: row.version_id,
    }),
  };
}

export function prepareDefinition(definition: WorkflowDefinition): PreparedWorkflow {
  return { definition, graph: buildGraph(definition), snapshot: JSON.stringify(definition) };
}

/** Keeps the prepared form of recently used workflow versions. */
export class WorkflowCache {
  private readonly map = new Map<string, PreparedWorkflow>();

  get(row: WorkflowRow): PreparedWorkflow {
    const hit = this.map.get(row.id);
    if (hit && hit.definition.versionId === row.version_id && hit.definition.active === (row.active === 1)) return hit;
    const p = prepare(row);
    if (this.map.size > 1000) this.map.clear();
    this.map.set(row.id, p);
    return p;
  }

  drop(id: string): void {
    this.map.delete(id);
  }
}
