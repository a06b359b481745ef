// What a request may see: its key's organization, narrowed by the key's own scope (a pod or an
// inbox, for keys minted through /v0/api-keys) and by the route (/v0/pods/{pod_id}/…,
// /v0/inboxes/{inbox_id}/…). AgentMail: a scoped key "can only access resources within" its scope.
import type { FastifyRequest } from 'fastify';
import type { KeyScope, RequestScope } from '../identity/scope.js';
import type { InboxRow } from '../store/index.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The pod or inbox the request's key is limited to (set by the auth hook; empty for organization keys). */
    mailKeyScope: KeyScope;
  }
}

/** The scope of a request: the route's pod or inbox if it names one, else the key's (routes naming an inbox check it with ownInbox, which holds it to the key's scope). */
export function scopeOf(request: FastifyRequest): RequestScope {
  const params = (request.params ?? {}) as { pod_id?: string; inbox_id?: string };
  const key = request.mailKeyScope ?? {};
  return {
    orgId: request.mailOrgId,
    podId: params.pod_id ?? key.podId,
    inboxId: params.inbox_id?.toLowerCase() ?? key.inboxId,
  };
}

/** Whether a request may see an inbox at all. */
export function inScope(request: FastifyRequest, inbox: InboxRow): boolean {
  const key = request.mailKeyScope ?? {};
  const podId = ((request.params ?? {}) as { pod_id?: string }).pod_id;
  if (inbox.org_id !== request.mailOrgId) return false;
  if (key.podId && inbox.pod_id !== key.podId) return false;
  if (key.inboxId && inbox.inbox_id !== key.inboxId) return false;
  return !podId || inbox.pod_id === podId;
}

/** The route prefixes an organization-wide collection is also served under, scoped (AgentMail's pod routes). */
export const ORG_AND_POD = ['/v0', '/v0/pods/:pod_id'] as const;
/** …and under one inbox too (webhooks, lists, metrics, api-keys). */
export const ALL_SCOPES = ['/v0', '/v0/pods/:pod_id', '/v0/inboxes/:inbox_id'] as const;
