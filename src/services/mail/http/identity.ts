// /v0/auth/me (who the key is and what it is limited to) and /v0/organizations (the key's
// organization with its counts).
import type { App } from '../../../platform/http.js';
import type { MailContext } from './context.js';
import { answers, Int, Open, opt, Str } from './responses.js';

const Identity = Open({
  scope_type: Str,
  scope_id: Str,
  organization_id: Str,
  pod_id: opt(Str),
  inbox_id: opt(Str),
  api_key_id: opt(Str),
});
const Organization = Open({
  organization_id: Str,
  inbox_count: Int,
  domain_count: Int,
  created_at: Str,
  updated_at: Str,
});

export function identityRoutes(app: App, ctx: MailContext): void {
  app.get('/v0/auth/me', { schema: { response: answers(Identity) } }, async (request) => {
    const key = request.mailKeyScope ?? {};
    const orgId = request.mailOrgId;
    // An inbox-scoped key also names its inbox's pod (AgentMail: pod_id is present for pod and inbox scopes).
    const podId = key.inboxId ? (await ctx.inbox(key.inboxId))?.pod_id : key.podId;
    const scopeType = key.inboxId ? 'inbox' : key.podId ? 'pod' : 'organization';
    return {
      scope_type: scopeType,
      scope_id: key.inboxId ?? key.podId ?? orgId,
      organization_id: orgId,
      ...(podId ? { pod_id: podId } : {}),
      ...(key.inboxId ? { inbox_id: key.inboxId } : {}),
      api_key_id: request.mailKeyId,
    };
  });

  app.get('/v0/organizations', { schema: { response: answers(Organization) } }, async (request) => {
    const orgId = request.mailOrgId;
    // The organization's default pod is written the first time it is needed: its times are the organization's.
    const pod = await ctx.pods.defaultPod(orgId);
    // Times are ISO text: any year-9999 bound is after them all (a +275760 date would sort first).
    const end = '9999-12-31T23:59:59.999Z';
    const [inboxes, domains] = await Promise.all([
      ctx.store.metrics.inboxTimes({ orgId }, end),
      ctx.store.metrics.domainTimes({ orgId }, end),
    ]);
    return {
      organization_id: orgId,
      inbox_count: inboxes.length,
      domain_count: domains.length,
      created_at: pod.created_at,
      updated_at: pod.updated_at,
    };
  });
}
