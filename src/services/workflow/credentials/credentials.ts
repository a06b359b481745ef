// Credentials: stored encrypted (cipher.ts), shown without their data, resolved to clear data
// only inside a run for the node that references them (node.credentials[type] = {id, name},
// as n8n exports write it), and checked when a workflow is activated.
import type { Clock } from '../../../platform/clock.js';
import { randomBase62 } from '../../../platform/ids.js';
import { NodeOperationError } from '../engine/node-type.js';
import type { WorkflowDefinition, WorkflowNode } from '../engine/types.js';
import type { ApiStore, CredentialRow } from '../store/api-store.js';
import type { CredentialCipher } from './cipher.js';

/** HTTP Request v1–v2 `authentication` values and the credential type each uses. */
export const LEGACY_HTTP_AUTH: Record<string, string> = {
  basicAuth: 'httpBasicAuth',
  digestAuth: 'httpDigestAuth',
  headerAuth: 'httpHeaderAuth',
  queryAuth: 'httpQueryAuth',
  oAuth1: 'oAuth1Api',
  oAuth2: 'oAuth2Api',
};

/** Webhook `authentication` values and their credential types. */
const WEBHOOK_AUTH: Record<string, string> = {
  basicAuth: 'httpBasicAuth',
  headerAuth: 'httpHeaderAuth',
  jwtAuth: 'jwtAuth',
};

const str = (v: unknown): string | undefined => (typeof v === 'string' && v && !v.startsWith('=') ? v : undefined);

/** The credential type a node's parameters make it need, or undefined (none, or chosen by an expression). */
function requiredCredentialType(node: WorkflowNode): string | undefined {
  const p = node.parameters ?? {};
  const auth = str(p.authentication);
  if (!auth || auth === 'none') return undefined;
  if (node.type === 'n8n-nodes-base.httpRequest') {
    if (Number(node.typeVersion ?? 1) >= 3) {
      if (auth === 'genericCredentialType') return str(p.genericAuthType);
      if (auth === 'predefinedCredentialType') return str(p.nodeCredentialType);
      return undefined;
    }
    return LEGACY_HTTP_AUTH[auth];
  }
  if (node.type === 'n8n-nodes-base.webhook') return WEBHOOK_AUTH[auth];
  return undefined;
}

export interface CredentialInput {
  name: string;
  type: string;
  data: Record<string, unknown>;
}

export class Credentials {
  constructor(
    private readonly store: ApiStore,
    private readonly cipher: CredentialCipher,
    private readonly clock: Clock,
  ) {}

  async create(input: CredentialInput): Promise<CredentialRow> {
    const now = this.clock.now().toISOString();
    const row: CredentialRow = {
      id: randomBase62(16),
      name: input.name,
      type: input.type,
      data: this.cipher.encrypt(input.data),
      created_at: now,
      updated_at: now,
    };
    await this.store.insertCredential(row);
    return row;
  }

  /** Changes name, type or data; `mergeData` keeps the stored fields the new data does not name (n8n's isPartialData). */
  async update(
    row: CredentialRow,
    patch: { name?: string; type?: string; data?: Record<string, unknown> },
    mergeData: boolean,
  ): Promise<CredentialRow> {
    const next: CredentialRow = { ...row, updated_at: this.clock.now().toISOString() };
    if (patch.name !== undefined) next.name = patch.name;
    if (patch.type !== undefined) next.type = patch.type;
    if (patch.data !== undefined)
      next.data = this.cipher.encrypt(mergeData ? { ...this.cipher.decrypt(row.data), ...patch.data } : patch.data);
    const { id: _id, created_at: _created, ...changes } = next;
    await this.store.updateCredential(row.id, changes);
    return next;
  }

  /** The clear data, for a merge check (PATCH with isPartialData); never sent to a client. */
  clearData(row: CredentialRow): Record<string, unknown> {
    return this.cipher.decrypt(row.data);
  }

  /** The stored credential a node reference names: by id, else (an export without ids) by name. */
  private async find(
    type: string,
    ref: { id?: unknown; name?: unknown } | undefined,
  ): Promise<CredentialRow | undefined> {
    if (!ref) return undefined;
    if (typeof ref.id === 'string' && ref.id) {
      const row = await this.store.getCredential(ref.id);
      return row && row.type === type ? row : undefined;
    }
    if (typeof ref.name === 'string') return this.store.credentialByName(type, ref.name);
    return undefined;
  }

  /** The clear data of the credential of `type` a node references; n8n's errors when there is none. */
  async resolve(node: WorkflowNode, type: string): Promise<Record<string, unknown>> {
    const ref = (node.credentials as Record<string, { id?: unknown; name?: unknown }> | undefined)?.[type];
    if (!ref) throw new NodeOperationError(`Node "${node.name}" does not have any credentials set for "${type}"`);
    const row = await this.find(type, ref);
    if (!row)
      throw new NodeOperationError(
        `Credential with ID "${String(ref.id ?? ref.name)}" does not exist for type "${type}".`,
      );
    try {
      return this.cipher.decrypt(row.data);
    } catch {
      throw new NodeOperationError(
        `Credentials "${row.name}" could not be decrypted`,
        'The encryption key (WORKFLOW_ENCRYPTION_KEY, or the key file in the data directory) is not the one they were saved with.',
      );
    }
  }

  /**
   * What n8n refuses activation for: enabled nodes whose parameters need a credential the
   * node does not reference, or references but this instance does not have. Undefined when
   * every one is there; else n8n's message.
   */
  async activationProblem(wf: Pick<WorkflowDefinition, 'nodes'>): Promise<string | undefined> {
    const issues: string[] = [];
    for (const node of wf.nodes ?? []) {
      if (node.disabled) continue;
      const type = requiredCredentialType(node);
      if (!type) continue;
      const ref = (node.credentials as Record<string, { id?: unknown; name?: unknown }> | undefined)?.[type];
      if (!(await this.find(type, ref))) issues.push(`Node "${node.name}": Missing required credential: ${type}`);
    }
    if (!issues.length) return undefined;
    return `Cannot publish workflow: ${issues.length} ${issues.length === 1 ? 'node' : 'nodes'} have configuration issues: ${issues.join('; ')}`;
  }
}
