// Custom domains of the organization or a pod: add (a DKIM key is generated), list, get with
// the DNS records to publish, the records as a zone file, verify (DNS lookups), mark verified
// by hand (offline hosts), change options, delete.
import { Type } from '@sinclair/typebox';
import type { App } from '../../../platform/http.js';
import type { MailContext } from './context.js';
import { boolOf, cursorOf, limitOf, pageOf, type Query } from './query.js';
import { answers, Deleted, Int, Open, opt, Str } from './responses.js';
import { ORG_AND_POD, scopeOf } from './scope.js';
import { ListQuery, nullable } from './schemas.js';

const Flags = {
  feedback_enabled: nullable(Type.Boolean()),
  subdomains_enabled: nullable(Type.Boolean()),
  tracking_enabled: nullable(Type.Boolean()),
};
const CreateDomain = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253 }),
  allow_conflicting_provider: nullable(Type.Boolean()),
  client_id: nullable(Type.String({ minLength: 1, maxLength: 256 })),
  ...Flags,
});
const UpdateDomain = Type.Object(Flags);
const itemFields = {
  pod_id: opt(Str),
  domain_id: Str,
  domain: Str,
  feedback_enabled: Type.Boolean(),
  subdomains_enabled: Type.Boolean(),
  tracking_enabled: Type.Boolean(),
  client_id: opt(Str),
  created_at: Str,
  updated_at: Str,
};
const Record = Open({ type: Str, name: Str, value: Str, status: Str, priority: opt(Int), reason: opt(Str) });
const Domain = Open({ ...itemFields, status: Str, reason: opt(Str), records: Type.Array(Record) });
const DomainList = Open({ count: Int, limit: Int, next_page_token: opt(Str), domains: Type.Array(Open(itemFields)) });
const SetupLink = Open({ supported: Type.Boolean() });
const Params = Type.Object({ domain_id: Type.String() });
const Verified = Open({}, 'Empty: the outcome is on the domain (GET it)');

export function domainRoutes(app: App, ctx: MailContext): void {
  const { customDomains: domains, store } = ctx;

  for (const base of ORG_AND_POD) {
    app.get(
      `${base}/domains`,
      { schema: { querystring: ListQuery, response: answers(DomainList, 404) } },
      async (request) => {
        const q = request.query as Query;
        const s = scopeOf(request);
        const limit = limitOf(q);
        const rows = await store.domains.list(
          { orgId: s.orgId, podId: s.podId },
          { limit, cursor: cursorOf(q), ascending: boolOf(q, 'ascending') },
        );
        const { items, next_page_token } = pageOf(rows, limit, (r) => [r.created_at, r.domain_id]);
        return {
          count: items.length,
          limit,
          ...(next_page_token ? { next_page_token } : {}),
          domains: items.map((d) => domains.item(d)),
        };
      },
    );

    app.post(
      `${base}/domains`,
      { schema: { body: CreateDomain, response: answers(Domain, 404, 409) } },
      async (request) => domains.record(await domains.create(scopeOf(request), request.body)),
    );

    app.get(
      `${base}/domains/:domain_id`,
      { schema: { params: Params, response: answers(Domain, 404) } },
      async (request) => domains.record(await domains.visible(scopeOf(request), request.params.domain_id)),
    );

    app.get(
      `${base}/domains/:domain_id/zone-file`,
      { schema: { params: Params, response: { 200: Type.String(), ...answers(Type.String(), 404) } } },
      async (request, reply) => {
        const row = await domains.visible(scopeOf(request), request.params.domain_id);
        return reply
          .type('text/plain; charset=utf-8')
          .header('content-disposition', `attachment; filename="${row.domain}.zone"`)
          .send(domains.zoneFile(row));
      },
    );

    app.patch(
      `${base}/domains/:domain_id`,
      { schema: { params: Params, body: UpdateDomain, response: answers(Domain, 404) } },
      async (request) =>
        domains.record(
          await domains.update(await domains.visible(scopeOf(request), request.params.domain_id), request.body ?? {}),
        ),
    );

    app.delete(
      `${base}/domains/:domain_id`,
      { schema: { params: Params, response: answers(Deleted('domain_id'), 404) } },
      async (request) => {
        const row = await domains.visible(scopeOf(request), request.params.domain_id);
        await domains.delete(row);
        return { deleted: true, domain_id: row.domain_id };
      },
    );

    // AgentMail answers an empty body; the outcome (status and each record's) is on the domain.
    app.post(
      `${base}/domains/:domain_id/verify`,
      { schema: { params: Params, response: answers(Verified, 404) } },
      async (request) => {
        await domains.verify(await domains.visible(scopeOf(request), request.params.domain_id));
        return {};
      },
    );

    // Hamlet's own: where the host cannot reach a DNS server, the operator vouches for the records.
    app.post(
      `${base}/domains/:domain_id/mark-verified`,
      { schema: { params: Params, response: answers(Domain, 404) } },
      async (request) =>
        domains.record(await domains.markVerified(await domains.visible(scopeOf(request), request.params.domain_id))),
    );
  }

  // Domain Connect (one-click setup at the DNS provider) is not offered: publish the records by hand.
  app.get(
    '/v0/domains/:domain_id/setup-link',
    { schema: { params: Params, response: answers(SetupLink, 404) } },
    async (request) => {
      await domains.visible(scopeOf(request), request.params.domain_id);
      return { supported: false };
    },
  );
}
