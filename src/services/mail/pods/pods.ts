// Pods: organization → pods → inboxes (AgentMail). Every organization has a default pod, whose
// id is derived from the organization (http/auth.ts podIdOf) so inboxes made before pods
// existed already belong to it; its row is written the first time a pod route needs it.
import type { Clock } from '../../../platform/clock.js';
import { DomainError } from '../../../platform/errors.js';
import { uuid } from '../../../platform/ids.js';
import { invalid, notFoundError } from '../errors.js';
import { podIdOf } from '../identity/scope.js';
import { isDuplicate, type MailStore, type PodRow } from '../store/index.js';

const DEFAULT_POD_NAME = 'default';

export class Pods {
  constructor(
    private readonly store: MailStore,
    private readonly clock: Clock,
  ) {}

  /** The organization's default pod, its row written on first use. */
  async defaultPod(orgId: string): Promise<PodRow> {
    const podId = podIdOf(orgId);
    const existing = await this.store.pods.get(podId);
    if (existing) return existing;
    const now = this.clock.now().toISOString();
    await this.store.pods.ensure({
      pod_id: podId,
      org_id: orgId,
      name: DEFAULT_POD_NAME,
      client_id: null,
      created_at: now,
      updated_at: now,
    });
    return (await this.store.pods.get(podId))!;
  }

  /** A pod of the organization, or a 404 (another organization's pod is not found either). */
  async require(orgId: string, podId: string): Promise<PodRow> {
    if (podId === podIdOf(orgId)) return this.defaultPod(orgId);
    const pod = await this.store.pods.get(podId);
    if (!pod || pod.org_id !== orgId) throw notFoundError('Pod');
    return pod;
  }

  /** Idempotent by client_id: a repeat answers the pod made first. */
  async create(orgId: string, input: { name?: string | null; client_id?: string | null }): Promise<PodRow> {
    if (input.client_id != null) {
      if (input.client_id.includes('@')) throw invalid('client_id', 'must not contain @');
      const existing = await this.store.pods.byClientId(orgId, input.client_id);
      if (existing) return existing;
    }
    await this.defaultPod(orgId);
    const now = this.clock.now().toISOString();
    const row: PodRow = {
      pod_id: uuid(),
      org_id: orgId,
      name: input.name ?? 'pod',
      client_id: input.client_id ?? null,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.store.pods.insert(row);
    } catch (err) {
      const winner =
        isDuplicate(err) && input.client_id != null
          ? await this.store.pods.byClientId(orgId, input.client_id)
          : undefined;
      if (winner) return winner;
      throw err;
    }
    return row;
  }

  /** A pod that still holds inboxes or domains is kept (nothing is deleted along with it); so is the default pod. */
  async delete(pod: PodRow): Promise<void> {
    if (pod.pod_id === podIdOf(pod.org_id))
      throw new DomainError('conflict', 'The default pod cannot be deleted', 'conflict', {
        field: 'pod_id',
        code: 'DEFAULT_POD',
      });
    const inboxes = await this.store.inboxes.countOfPod(pod.pod_id);
    const domains = (await this.store.domains.list({ orgId: pod.org_id, podId: pod.pod_id }, { limit: 1 })).length;
    if (inboxes || domains)
      throw new DomainError(
        'conflict',
        `Pod ${pod.pod_id} still holds ${inboxes} inbox(es) and ${domains} domain(s); delete them first`,
        'conflict',
        { field: 'pod_id', code: 'POD_NOT_EMPTY' },
      );
    await this.store.pods.delete(pod.pod_id);
  }
}

/** A pod as the API answers it (AgentMail's Pod). */
export const podRecord = (p: PodRow) => ({
  pod_id: p.pod_id,
  name: p.name,
  ...(p.client_id ? { client_id: p.client_id } : {}),
  created_at: p.created_at,
  updated_at: p.updated_at,
});
