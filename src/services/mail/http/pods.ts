// /v0/pods: list, create (idempotent by client_id), get, delete; and the check every
// /v0/pods/{pod_id}/… route passes first (the pod is the caller's and inside its key's scope).
import { Type } from '@sinclair/typebox';
import { DomainError } from '../../../platform/errors.js';
import type { App } from '../../../platform/http.js';
import { notFoundError } from '../errors.js';
import { podRecord } from '../pods/pods.js';
import type { MailContext } from './context.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers, Deleted, Int, Open, opt, Str } from './responses.js';
import { ListQuery, nullable } from './schemas.js';

const Pod = Open({ pod_id: Str, name: Str, client_id: opt(Str), created_at: Str, updated_at: Str });
const PodList = Open({ count: Int, limit: Int, next_page_token: opt(Str), pods: Type.Array(Pod) });
const CreatePod = Type.Union([
  Type.Object({
    name: nullable(Type.String({ minLength: 1, maxLength: 256 })),
    client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
  }),
  Type.Null(),
]);
const PodParams = Type.Object({ pod_id: Type.String() });

export function podRoutes(app: App, ctx: MailContext): void {
  const { pods, store } = ctx;

  // Runs before every handler: a pod named in the path must be the caller's, and the one its key is limited to.
  app.addHook('preHandler', async (request) => {
    const podId = (request.params as { pod_id?: string } | undefined)?.pod_id;
    if (!podId || !request.mailOrgId) return;
    const key = request.mailKeyScope ?? {};
    if (key.podId && key.podId !== podId) throw notFoundError('Pod');
    await pods.require(request.mailOrgId, podId);
  });

  app.get('/v0/pods', { schema: { querystring: ListQuery, response: answers(PodList) } }, async (request) => {
    const q = request.query as Query;
    const limit = limitOf(q);
    await pods.defaultPod(request.mailOrgId);
    const key = request.mailKeyScope ?? {};
    const rows = (
      await store.pods.list(request.mailOrgId, { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') })
    ).filter((p) => !key.podId || p.pod_id === key.podId);
    const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.pod_id]);
    return { count: items.length, limit, ...(next_page_token ? { next_page_token } : {}), pods: items.map(podRecord) };
  });

  app.post('/v0/pods', { schema: { body: CreatePod, response: answers(Pod, 403, 409) } }, async (request) => {
    if (request.mailKeyScope?.podId)
      throw new DomainError('forbidden', 'A key limited to a pod cannot create pods', 'forbidden');
    return podRecord(await pods.create(request.mailOrgId, request.body ?? {}));
  });

  app.get('/v0/pods/:pod_id', { schema: { params: PodParams, response: answers(Pod, 404) } }, async (request) =>
    podRecord(await pods.require(request.mailOrgId, request.params.pod_id)),
  );

  app.delete(
    '/v0/pods/:pod_id',
    { schema: { params: PodParams, response: answers(Deleted('pod_id'), 404, 409) } },
    async (request) => {
      const pod = await pods.require(request.mailOrgId, request.params.pod_id);
      await pods.delete(pod);
      return { deleted: true, pod_id: pod.pod_id };
    },
  );
}
