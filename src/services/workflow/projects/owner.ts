// The instance owner and their personal project, as a self-hosted single-owner n8n has them:
// created on first start (stable ids from then on), shown by GET /users and GET /projects,
// and named in every workflow's and credential's `shared` so project-aware clients (n8n-mcp
// resolving "personal") find where things live.
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import { randomBase62 } from '../../../platform/ids.js';
import type { ApiStore, ProjectRow, UserRow } from '../store/api-store.js';

export interface OwnerSettings {
  email: string;
  firstName: string;
  lastName: string;
}

/** A project as n8n's public API lists it. */
export interface ProjectJson {
  id: string;
  name: string;
  type: 'personal';
  icon: null;
  description: null;
  createdAt: string;
  updatedAt: string;
}

/** A user as n8n's public API shows one. */
export interface UserJson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  isPending: boolean;
  createdAt: string;
  updatedAt: string;
  role?: string;
}

/** n8n names a personal project after its owner: "First Last <email>". */
const projectName = (o: OwnerSettings) => `${o.firstName} ${o.lastName} <${o.email}>`;

export class InstanceOwner {
  private user?: UserRow;
  private project?: ProjectRow;

  constructor(
    private readonly store: ApiStore,
    private readonly clock: Clock,
  ) {}

  /** Loads the owner, creating them on first start; a changed name or email in the settings is applied. */
  async start(settings: OwnerSettings): Promise<void> {
    const now = this.clock.now().toISOString();
    let user = await this.store.firstUser();
    if (!user) {
      const id = randomUUID();
      const created: UserRow = {
        id,
        email: settings.email,
        first_name: settings.firstName,
        last_name: settings.lastName,
        role: 'global:owner',
        created_at: now,
        updated_at: now,
      };
      const project: ProjectRow = {
        id: randomBase62(16),
        name: projectName(settings),
        type: 'personal',
        owner_id: id,
        created_at: now,
        updated_at: now,
      };
      // Two processes starting on one PostgreSQL race here; the unique role lets one win.
      await this.store.insertOwner(created, project);
      user = (await this.store.firstUser())!;
    }
    let project = (await this.store.projectOf(user.id))!;
    if (
      user.email !== settings.email ||
      user.first_name !== settings.firstName ||
      user.last_name !== settings.lastName
    ) {
      user = {
        ...user,
        email: settings.email,
        first_name: settings.firstName,
        last_name: settings.lastName,
        updated_at: now,
      };
      project = { ...project, name: projectName(settings), updated_at: now };
      await this.store.updateOwner(user, project);
    }
    this.user = user;
    this.project = project;
  }

  private get loaded(): { user: UserRow; project: ProjectRow } {
    if (!this.user || !this.project) throw new Error('InstanceOwner.start() has not run');
    return { user: this.user, project: this.project };
  }

  get projectId(): string {
    return this.loaded.project.id;
  }

  get userId(): string {
    return this.loaded.user.id;
  }

  projectJson(): ProjectJson {
    const p = this.loaded.project;
    return {
      id: p.id,
      name: p.name,
      type: 'personal',
      icon: null,
      description: null,
      createdAt: p.created_at,
      updatedAt: p.updated_at,
    };
  }

  /** The owner as GET /users shows them; `role` only when asked (n8n's includeRole). */
  userJson(includeRole: boolean): UserJson {
    const u = this.loaded.user;
    return {
      id: u.id,
      email: u.email,
      firstName: u.first_name,
      lastName: u.last_name,
      isPending: false,
      createdAt: u.created_at,
      updatedAt: u.updated_at,
      ...(includeRole ? { role: u.role } : {}),
    };
  }

  /** Whether `idOrEmail` names the owner (GET /users/{id|email}; emails compare case-insensitively). */
  isOwner(idOrEmail: string): boolean {
    const u = this.loaded.user;
    return idOrEmail === u.id || idOrEmail.toLowerCase() === u.email.toLowerCase();
  }

  /** A `projectId` filter: undefined (none) keeps everything, the owner's project too; any other id matches nothing. */
  matchesProject(projectId: string | undefined): boolean {
    return projectId === undefined || projectId === '' || projectId === this.projectId;
  }

  /** n8n's `shared` of a resource the owner's project owns ('workflow' or 'credential'). */
  shared(
    kind: 'workflow' | 'credential',
    resourceId: string,
    createdAt: string,
    updatedAt: string,
  ): Array<Record<string, unknown>> {
    const p = this.loaded.project;
    return [
      {
        role: `${kind}:owner`,
        projectId: p.id,
        project: { id: p.id, name: p.name, type: p.type },
        createdAt,
        updatedAt,
        [kind === 'workflow' ? 'workflowId' : 'credentialsId']: resourceId,
      },
    ];
  }
}
