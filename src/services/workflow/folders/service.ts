// Workflow folders of the owner's project, as n8n's public folder API (n8n 2.19+, which
// n8n-mcp's n8n_manage_folders calls) has them: create (optionally under a parent), list with
// counts and the path of names, get with recursive totals, rename, move (under another folder
// or to the root, never under itself), delete (sub-folders go, or move to `transferToFolderId`,
// '0' being the root). Workflows are not placed in folders here (the workflow API refuses
// `parentFolderId`), so every workflow count is the true count: zero.
import type { Clock } from '../../../platform/clock.js';
import { DomainError } from '../../../platform/errors.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { FolderRow, FolderStore } from '../store/folders.js';

/** The project root in n8n's move and transfer arguments. */
const ROOT = '0';
const MAX_NAME = 128;
/** Folders one project may hold, and how deep they may nest: paths and totals are computed from all of them. */
const FOLDER_LIMITS = { perProject: 10_000, depth: 50 };

const invalid = (message: string) => new DomainError('invalid', message);
const notFound = (id: string) => new DomainError('not_found', `Could not find the folder: '${id}'`);

export interface FolderListItem {
  id: string;
  name: string;
  createdAt: string;
  updatedAt: string;
  parentFolder: { id: string; name: string; parentFolderId: string | null } | null;
  workflowCount: number;
  subFolderCount: number;
  path: string[];
}

/** One project's folders in memory, for paths, descendants and counts. */
class Tree {
  readonly byId: Map<string, FolderRow>;
  constructor(readonly rows: FolderRow[]) {
    this.byId = new Map(rows.map((r) => [r.id, r]));
  }

  children(id: string | null): FolderRow[] {
    return this.rows.filter((r) => r.parent_folder_id === id);
  }

  /** Every folder below `id`, nearest first. */
  descendants(id: string): FolderRow[] {
    const out: FolderRow[] = [];
    const queue = [id];
    while (queue.length) {
      for (const c of this.children(queue.shift()!)) {
        out.push(c);
        queue.push(c.id);
      }
    }
    return out;
  }

  /** Names from the root down to the folder. */
  path(id: string): string[] {
    const names: string[] = [];
    for (
      let f = this.byId.get(id);
      f && names.length <= FOLDER_LIMITS.depth;
      f = f.parent_folder_id ? this.byId.get(f.parent_folder_id) : undefined
    )
      names.unshift(f.name);
    return names;
  }
}

function checkName(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.trim()) throw invalid('Folder name cannot be empty');
  const name = raw.trim();
  if (name.length > MAX_NAME) throw invalid(`Folder name must be at most ${MAX_NAME} characters`);
  return name;
}

function optionalId(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string' || raw.length > 64) throw invalid(`${field} must be a folder id`);
  return raw;
}

export class Folders {
  constructor(
    private readonly store: FolderStore,
    private readonly clock: Clock,
  ) {}

  private async tree(projectId: string): Promise<Tree> {
    return new Tree(await this.store.ofProject(projectId));
  }

  private folderIn(tree: Tree, id: string): FolderRow {
    const f = tree.byId.get(id);
    if (!f) throw notFound(id);
    return f;
  }

  private json(f: FolderRow) {
    return {
      id: f.id,
      name: f.name,
      parentFolderId: f.parent_folder_id,
      projectId: f.project_id,
      createdAt: f.created_at,
      updatedAt: f.updated_at,
    };
  }

  async create(projectId: string, rawName: unknown, rawParent: unknown) {
    const name = checkName(rawName);
    const parent = optionalId(rawParent, 'parentFolderId');
    const tree = await this.tree(projectId);
    if (tree.rows.length >= FOLDER_LIMITS.perProject)
      throw invalid(`A project can hold at most ${FOLDER_LIMITS.perProject} folders`);
    if (parent) {
      this.folderIn(tree, parent);
      if (tree.path(parent).length >= FOLDER_LIMITS.depth)
        throw invalid(`Folders can nest at most ${FOLDER_LIMITS.depth} deep`);
    }
    const now = this.clock.now().toISOString();
    const row: FolderRow = {
      id: randomBase62(16),
      name,
      project_id: projectId,
      parent_folder_id: parent ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.store.insert(row);
    return this.json(row);
  }

  async list(
    projectId: string,
    q: { name?: string; parentFolderId?: string; sortBy: string; skip: number; take: number },
  ): Promise<{ count: number; data: FolderListItem[] }> {
    const tree = await this.tree(projectId);
    const needle = q.name?.toLowerCase();
    let rows = tree.rows.filter(
      (r) =>
        (!needle || r.name.toLowerCase().includes(needle)) &&
        (q.parentFolderId === undefined ||
          r.parent_folder_id === (q.parentFolderId === ROOT ? null : q.parentFolderId)),
    );
    const [field, dir] = q.sortBy.split(':');
    const key = (r: FolderRow) =>
      field === 'name' ? r.name.toLowerCase() : field === 'createdAt' ? r.created_at : r.updated_at;
    rows = rows.sort((a, b) => (dir === 'asc' ? 1 : -1) * key(a).localeCompare(key(b)) || a.id.localeCompare(b.id));
    const data = rows.slice(q.skip, q.skip + q.take).map((f) => {
      const parent = f.parent_folder_id ? tree.byId.get(f.parent_folder_id) : undefined;
      return {
        id: f.id,
        name: f.name,
        createdAt: f.created_at,
        updatedAt: f.updated_at,
        parentFolder: parent ? { id: parent.id, name: parent.name, parentFolderId: parent.parent_folder_id } : null,
        workflowCount: 0,
        subFolderCount: tree.children(f.id).length,
        path: tree.path(f.id),
      };
    });
    return { count: rows.length, data };
  }

  async get(projectId: string, id: string) {
    const tree = await this.tree(projectId);
    const f = this.folderIn(tree, id);
    return {
      ...this.json(f),
      path: tree.path(id),
      totalWorkflows: 0,
      totalSubFolders: tree.descendants(id).length,
      items: [],
    };
  }

  /** Renames and/or moves (`parentFolderId`: a folder, or '0' / null for the root). */
  async update(projectId: string, id: string, body: Record<string, unknown>) {
    const tree = await this.tree(projectId);
    const f = this.folderIn(tree, id);
    if (body.name === undefined && body.parentFolderId === undefined)
      throw invalid('Nothing to update: give name or parentFolderId');
    const now = this.clock.now().toISOString();
    const patch: Partial<FolderRow> = { updated_at: now };
    if (body.name !== undefined) patch.name = checkName(body.name);
    if (body.parentFolderId !== undefined) {
      const target =
        body.parentFolderId === null || body.parentFolderId === ROOT
          ? null
          : optionalId(body.parentFolderId, 'parentFolderId')!;
      if (target !== null) {
        if (target === id) throw invalid("Cannot set a folder's parent to itself");
        this.folderIn(tree, target);
        if (tree.descendants(id).some((d) => d.id === target))
          throw invalid("Cannot set a folder's parent to a folder inside it");
        const depthBelow = Math.max(
          0,
          ...tree.descendants(id).map((d) => tree.path(d.id).length - tree.path(id).length),
        );
        if (tree.path(target).length + 1 + depthBelow > FOLDER_LIMITS.depth)
          throw invalid(`Folders can nest at most ${FOLDER_LIMITS.depth} deep`);
      }
      patch.parent_folder_id = target;
    }
    await this.store.update(id, patch);
    return this.json({ ...f, ...patch });
  }

  /** Deletes a folder: its sub-folders with it, or moved into `transferToFolderId` ('0' the root) first. */
  async delete(projectId: string, id: string, rawTransfer: unknown): Promise<void> {
    const tree = await this.tree(projectId);
    this.folderIn(tree, id);
    const transfer = optionalId(rawTransfer, 'transferToFolderId');
    const now = this.clock.now().toISOString();
    if (transfer === undefined) {
      await this.store.deleteAndMove([id, ...tree.descendants(id).map((d) => d.id)], [], null, now);
      return;
    }
    const target = transfer === ROOT ? null : transfer;
    if (target !== null) {
      if (target === id || tree.descendants(id).some((d) => d.id === target))
        throw invalid('Cannot transfer folder contents to the folder being deleted or a folder inside it');
      this.folderIn(tree, target);
    }
    await this.store.deleteAndMove(
      [id],
      tree.children(id).map((c) => c.id),
      target,
      now,
    );
  }
}
