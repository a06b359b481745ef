// Drives every method of the agentmail SDK (0.5.27) in the areas beyond the core: pods and
// their nested routes, thread and draft attachments, domains, allow/block lists, metrics,
// API keys, auth/me and the organization, and AgentID sign-in (providers, accounts, an inbox's
// authorize). Each JSON answer is checked with the SDK's own
// serialization schema in strict mode (unknown keys fail), as the server sent it; the last
// test fails if any method of those areas was never called.
import { generateKeyPairSync } from 'node:crypto';
import { AgentMail, AgentMailClient, serialization } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from './dns-server.js';
import { captureWarnings, startMail, type MailTestEnv } from './helpers.js';

type Schema = { parse(raw: unknown, opts?: object): { ok: boolean; errors?: unknown } };
interface Seen {
  method: string;
  url: string;
  status: number;
  body: string;
}

/** The SDK areas this file must cover, method by method. */
const AREAS = [
  'pods',
  'pods.inboxes',
  'pods.threads',
  'pods.drafts',
  'pods.domains',
  'pods.lists',
  'pods.metrics',
  'pods.apiKeys',
  'pods.webhooks',
  'inboxes.webhooks',
  'domains',
  'lists',
  'inboxes.lists',
  'metrics',
  'inboxes.metrics',
  'apiKeys',
  'inboxes.apiKeys',
  'auth',
  'organizations',
  'drafts',
  'providers',
  'accounts',
];
const EXTRA = [
  'inboxes.authorize',
  'threads.getAttachment',
  'inboxes.threads.getAttachment',
  'inboxes.drafts.getAttachment',
  'inboxes.threads.delete',
  'threads.delete',
  'inboxes.messages.delete',
  'inboxes.drafts.delete',
];

const CONTRACT_UNION = new Set(['participants', 'last_message_at']);
function withoutContractUnion(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutContractUnion);
  if (!value || typeof value !== 'object') return value;
  const isThread = 'thread_id' in value && 'message_count' in value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !(isThread && CONTRACT_UNION.has(k)))
      .map(([k, v]) => [k, withoutContractUnion(v)]),
  );
}

function methodsOf(obj: object): string[] {
  return Object.getOwnPropertyNames(Object.getPrototypeOf(obj)).filter(
    (n) => n !== 'constructor' && !n.startsWith('_') && typeof (obj as Record<string, unknown>)[n] === 'function',
  );
}

describe('agentmail SDK conformance: pods, attachments, domains, lists, metrics, api keys, identity', () => {
  let env: MailTestEnv;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let c: AgentMailClient;
  let warn: ReturnType<typeof captureWarnings>;
  const seen: Seen[] = [];
  const called = new Set<string>();

  /**
   * Calls one SDK method, checks its JSON answer with `schema` (strict), and notes the method as
   * covered. Thread records also carry the contract's `participants` and `last_message_at`
   * (docs/mail.md, "REST union"): those two keys, and only those, are taken out before the check.
   */
  async function sdk<T>(name: string, schema: Schema | undefined, call: () => Promise<T>): Promise<T> {
    const before = seen.length;
    const out = await call();
    called.add(name);
    expect(seen.length, name).toBe(before + 1);
    const answer = seen[seen.length - 1];
    if (schema) {
      const parsed = schema.parse(withoutContractUnion(JSON.parse(answer.body)));
      if (!parsed.ok)
        throw new Error(
          `${name}: ${answer.method} ${answer.url} does not match the SDK schema: ${JSON.stringify(parsed.errors)}\n${answer.body}`,
        );
    }
    return out;
  }

  const clientFor = (apiKey: string) =>
    new AgentMailClient({
      apiKey,
      baseUrl: env.api,
      maxRetries: 0,
      fetch: async (input, init) => {
        const res = await fetch(input, init);
        seen.push({
          method: init?.method ?? 'GET',
          url: String(input),
          status: res.status,
          body: await res.clone().text(),
        });
        return res;
      },
    });

  beforeAll(async () => {
    warn = captureWarnings();
    dns = await startDnsServer();
    env = await startMail({ env: { MAIL_DNS_RESOLVER: dns.address, MAIL_MX_HOST: 'mx.hamlet.test' } });
    c = clientFor(env.key);
  });
  afterAll(async () => {
    warn?.restore();
    await env?.t.destroy();
    await dns?.close();
  });

  let podId: string;
  let defaultPodId: string;
  let podInbox: string;
  let otherInbox: string;
  let threadId: string;
  let draftId: string;

  it('auth/me and the organization', async () => {
    const me = await sdk('auth.me', serialization.Identity, () => c.auth.me());
    expect(me.scopeType).toBe('organization');
    expect(me.scopeId).toBe(me.organizationId);
    const org = await sdk('organizations.get', serialization.Organization, () => c.organizations.get());
    expect(org.organizationId).toBe(me.organizationId);
    expect(org.inboxCount).toBe(0);
    expect(org.domainCount).toBe(0);
  });

  it('pods: create (idempotent), list, get; organization → pods → inboxes', async () => {
    const pod = await sdk('pods.create', serialization.pods.Pod, () =>
      c.pods.create({ name: 'Sales', clientId: 'pod-sales' }),
    );
    const again = await sdk('pods.create', serialization.pods.Pod, () =>
      c.pods.create({ name: 'Other', clientId: 'pod-sales' }),
    );
    expect(again.podId).toBe(pod.podId);
    podId = pod.podId;
    const list = await sdk('pods.list', serialization.pods.ListPodsResponse, () => c.pods.list());
    expect(list.pods.map((p) => p.name).sort()).toEqual(['Sales', 'default']);
    defaultPodId = list.pods.find((p) => p.name === 'default')!.podId;
    expect((await sdk('pods.get', serialization.pods.Pod, () => c.pods.get(podId))).name).toBe('Sales');

    const inbox = await sdk('pods.inboxes.create', serialization.inboxes.Inbox, () =>
      c.pods.inboxes.create(podId, { username: 'pod-bot', displayName: 'Pod Bot' }),
    );
    expect(inbox.podId).toBe(podId);
    podInbox = inbox.inboxId;
    otherInbox = (await c.inboxes.create({ username: 'plain-bot' })).inboxId;
    expect((await c.inboxes.get(otherInbox)).podId).toBe(defaultPodId);
    const inPod = await sdk('pods.inboxes.list', serialization.inboxes.ListInboxesResponse, () =>
      c.pods.inboxes.list(podId),
    );
    expect(inPod.inboxes.map((i) => i.inboxId)).toEqual([podInbox]);
    const found = await sdk('pods.inboxes.search', serialization.inboxes.SearchInboxesResponse, () =>
      c.pods.inboxes.search(podId, { q: 'pod-bot' }),
    );
    expect(found.inboxes.map((i) => i.inboxId)).toEqual([podInbox]);
    expect(
      (await sdk('pods.inboxes.get', serialization.inboxes.Inbox, () => c.pods.inboxes.get(podId, podInbox)))
        .displayName,
    ).toBe('Pod Bot');
    await expect(c.pods.inboxes.get(podId, otherInbox)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    const updated = await sdk('pods.inboxes.update', serialization.inboxes.Inbox, () =>
      c.pods.inboxes.update(podId, podInbox, { displayName: 'Pod Bot 2' }),
    );
    expect(updated.displayName).toBe('Pod Bot 2');
    await expect(c.pods.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    // A pod that still holds an inbox is not deleted (nothing goes with it).
    await expect(c.pods.delete(podId)).rejects.toMatchObject({ statusCode: 409 });
  });

  it('threads and their attachments, per inbox, per pod and organization-wide', async () => {
    const sent = await c.inboxes.messages.send(podInbox, {
      to: otherInbox,
      subject: 'Quarterly numbers',
      text: 'See attached.',
      attachments: [
        { filename: 'q3.csv', contentType: 'text/csv', content: Buffer.from('q,value\n3,42\n').toString('base64') },
      ],
    });
    threadId = sent.threadId;
    const list = await sdk('pods.threads.list', serialization.ListThreadsResponse, () => c.pods.threads.list(podId));
    expect(list.threads.map((t) => t.threadId)).toEqual([threadId]);
    const search = await sdk('pods.threads.search', serialization.SearchThreadsResponse, () =>
      c.pods.threads.search(podId, { q: 'quarterly' }),
    );
    expect(search.threads.map((t) => t.threadId)).toEqual([threadId]);
    const thread = await sdk('pods.threads.get', serialization.Thread, () => c.pods.threads.get(podId, threadId));
    const attachmentId = thread.attachments![0].attachmentId;
    for (const [name, get] of [
      ['pods.threads.getAttachment', () => c.pods.threads.getAttachment(podId, threadId, attachmentId)],
      ['threads.getAttachment', () => c.threads.getAttachment(threadId, attachmentId)],
      ['inboxes.threads.getAttachment', () => c.inboxes.threads.getAttachment(podInbox, threadId, attachmentId)],
    ] as const) {
      const att = await sdk(name, serialization.AttachmentResponse, get);
      expect(att.filename).toBe('q3.csv');
      expect(await (await fetch(att.downloadUrl)).text()).toBe('q,value\n3,42\n');
    }
    await expect(c.threads.getAttachment(threadId, 'att_9')).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    // The pod route does not reach threads of inboxes outside the pod.
    const theirs = (await c.inboxes.threads.list(otherInbox)).threads[0].threadId;
    await expect(c.pods.threads.get(podId, theirs)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    const labelled = await sdk('pods.threads.update', serialization.UpdateThreadResponse, () =>
      c.pods.threads.update(podId, threadId, { addLabels: ['finance'] }),
    );
    expect(labelled.labels).toContain('finance');
  });

  it('drafts and their attachments, per inbox, per pod and organization-wide', async () => {
    const draft = await c.inboxes.drafts.create(podInbox, {
      to: [otherInbox],
      subject: 'Draft with a file',
      attachments: [
        { filename: 'notes.txt', contentType: 'text/plain', content: Buffer.from('draft bytes').toString('base64') },
      ],
    });
    draftId = draft.draftId;
    const all = await sdk('drafts.list', serialization.ListDraftsResponse, () => c.drafts.list());
    expect(all.drafts.map((d) => d.draftId)).toContain(draftId);
    expect((await sdk('drafts.get', serialization.Draft, () => c.drafts.get(draftId))).subject).toBe(
      'Draft with a file',
    );
    const inPod = await sdk('pods.drafts.list', serialization.ListDraftsResponse, () => c.pods.drafts.list(podId));
    expect(inPod.drafts.map((d) => d.draftId)).toEqual([draftId]);
    expect((await sdk('pods.drafts.get', serialization.Draft, () => c.pods.drafts.get(podId, draftId))).draftId).toBe(
      draftId,
    );
    const attachmentId = draft.attachments![0].attachmentId;
    for (const [name, get] of [
      ['drafts.getAttachment', () => c.drafts.getAttachment(draftId, attachmentId)],
      ['pods.drafts.getAttachment', () => c.pods.drafts.getAttachment(podId, draftId, attachmentId)],
      ['inboxes.drafts.getAttachment', () => c.inboxes.drafts.getAttachment(podInbox, draftId, attachmentId)],
    ] as const) {
      const att = await sdk(name, serialization.AttachmentResponse, get);
      expect(await (await fetch(att.downloadUrl)).text()).toBe('draft bytes');
    }
  });

  it('deletes move threads, messages and drafts to the trash; permanent=true deletes for good', async () => {
    await sdk('pods.threads.delete', undefined, () => c.pods.threads.delete(podId, threadId));
    expect((await c.pods.threads.list(podId)).threads).toEqual([]);
    expect((await c.pods.threads.list(podId, { includeTrash: true })).threads.map((t) => t.threadId)).toEqual([
      threadId,
    ]);
    await sdk('threads.delete', undefined, () => c.threads.delete(threadId));
    expect((await c.threads.get(threadId)).labels).toContain('trash');
    await sdk('inboxes.threads.delete', undefined, () =>
      c.inboxes.threads.delete(podInbox, threadId, { queryParams: { permanent: true } }),
    );
    await expect(c.threads.get(threadId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);

    const received = (await c.inboxes.messages.list(otherInbox)).messages[0];
    await sdk('inboxes.messages.delete', undefined, () => c.inboxes.messages.delete(otherInbox, received.messageId));
    expect((await c.inboxes.messages.get(otherInbox, received.messageId)).labels).toContain('trash');

    await sdk('inboxes.drafts.delete', undefined, () => c.inboxes.drafts.delete(podInbox, draftId));
    expect((await c.drafts.list()).drafts.map((d) => d.draftId)).not.toContain(draftId);
    expect((await c.drafts.get(draftId)).labels).toContain('trash');
  });

  it('domains: add with DKIM and the records to publish, zone file, verify by DNS, options, delete', async () => {
    const d = await sdk('domains.create', serialization.Domain, () =>
      c.domains.create({ domain: 'Example-Corp.test', feedbackEnabled: true }),
    );
    expect(d.domainId).toBe('example-corp.test');
    expect(d.status).toBe('PENDING');
    expect(d.records.map((r) => r.type).sort()).toEqual(['MX', 'TXT', 'TXT', 'TXT']);
    const dkim = d.records.find((r) => r.name.includes('._domainkey.'))!;
    expect(dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(d.records.find((r) => r.type === 'MX')).toMatchObject({
      name: 'example-corp.test',
      value: 'mx.hamlet.test',
      priority: 10,
      status: 'MISSING',
    });
    const list = await sdk('domains.list', serialization.ListDomainsResponse, () => c.domains.list());
    expect(list.domains.map((x) => x.domainId)).toEqual(['example-corp.test']);
    const zone = await sdk('domains.getZoneFile', undefined, () => c.domains.getZoneFile(d.domainId));
    const zoneText = Buffer.from(await zone.arrayBuffer()).toString();
    expect(zoneText).toContain(`${dkim.name}.\t3600\tIN\tTXT`);
    expect(zoneText).toContain('IN\tMX\t10 mx.hamlet.test.');

    await sdk('domains.verify', undefined, () => c.domains.verify(d.domainId));
    expect((await c.domains.get(d.domainId)).status).toBe('PENDING');
    for (const r of d.records)
      dns.publish(
        r.name,
        r.type === 'MX' ? { type: 'MX', value: r.value, priority: r.priority! } : { type: 'TXT', value: r.value },
      );
    await c.domains.verify(d.domainId);
    const verified = await sdk('domains.get', serialization.Domain, () => c.domains.get(d.domainId));
    expect(verified.status).toBe('VERIFIED');
    expect(verified.records.every((r) => r.status === 'VALID')).toBe(true);
    // An inbox may now live on the verified domain.
    expect((await c.inboxes.create({ username: 'sales', domain: 'example-corp.test' })).inboxId).toBe(
      'sales@example-corp.test',
    );

    const updated = await sdk('domains.update', serialization.Domain, () =>
      c.domains.update(d.domainId, { subdomainsEnabled: true }),
    );
    expect(updated.status).toBe('PENDING');
    expect(updated.records.find((r) => r.name === '*.example-corp.test')).toMatchObject({
      type: 'MX',
      status: 'MISSING',
    });
    const link = await sdk('domains.getSetupLink', serialization.GetSetupLinkResponse, () =>
      c.domains.getSetupLink(d.domainId),
    );
    expect(link.supported).toBe(false);
    await expect(c.domains.create({ domain: 'example-corp.test' })).rejects.toMatchObject({ statusCode: 409 });
    await expect(c.domains.create({ domain: 'not a domain' })).rejects.toMatchObject({ statusCode: 400 });
    await sdk('domains.delete', undefined, () => c.domains.delete(d.domainId));
    await expect(c.domains.get(d.domainId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);

    const pd = await sdk('pods.domains.create', serialization.Domain, () =>
      c.pods.domains.create(podId, { domain: 'pod-domain.test' }),
    );
    expect(pd.podId).toBe(podId);
    expect(
      (await sdk('pods.domains.list', serialization.ListDomainsResponse, () => c.pods.domains.list(podId))).domains.map(
        (x) => x.domain,
      ),
    ).toEqual(['pod-domain.test']);
    expect(
      (await sdk('pods.domains.get', serialization.Domain, () => c.pods.domains.get(podId, pd.domainId))).domain,
    ).toBe('pod-domain.test');
    const podZone = await sdk('pods.domains.getZoneFile', undefined, () =>
      c.pods.domains.getZoneFile(podId, pd.domainId),
    );
    expect(Buffer.from(await podZone.arrayBuffer()).toString()).toContain('_dmarc.pod-domain.test.');
    expect(
      (
        await sdk('pods.domains.update', serialization.Domain, () =>
          c.pods.domains.update(podId, pd.domainId, { trackingEnabled: true }),
        )
      ).trackingEnabled,
    ).toBe(true);
    await sdk('pods.domains.verify', undefined, () => c.pods.domains.verify(podId, pd.domainId));
    expect(
      (await c.pods.domains.get(podId, pd.domainId)).records.find(
        (r) => r.name === 'pod-domain.test' && r.type === 'MX',
      )!.status,
    ).toBe('MISSING');
    await sdk('pods.domains.delete', undefined, () => c.pods.domains.delete(podId, pd.domainId));
  });

  it('allow and block lists of the organization, a pod and an inbox', async () => {
    const e = await sdk('lists.create', serialization.ListEntry, () =>
      c.lists.create('receive', 'block', { entry: 'Spammer.test', reason: 'noise' }),
    );
    expect(e).toMatchObject({ entry: 'spammer.test', entryType: 'domain', direction: 'receive', listType: 'block' });
    await c.lists.create('receive', 'block', { entry: 'a@b.test' });
    const page1 = await sdk('lists.list', serialization.ListListEntriesResponse, () =>
      c.lists.list('receive', 'block', { limit: 1 }),
    );
    expect(page1.entries.map((x) => x.entry)).toEqual(['a@b.test']);
    const page2 = await c.lists.list('receive', 'block', { limit: 1, pageToken: page1.nextPageToken });
    expect(page2.entries.map((x) => x.entry)).toEqual(['spammer.test']);
    expect(
      (await sdk('lists.get', serialization.ListEntry, () => c.lists.get('receive', 'block', 'spammer.test'))).reason,
    ).toBe('noise');
    await sdk('lists.delete', undefined, () => c.lists.delete('receive', 'block', 'spammer.test'));
    await expect(c.lists.get('receive', 'block', 'spammer.test')).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    await expect(c.lists.create('receive', 'block', { entry: 'not an entry' })).rejects.toMatchObject({
      statusCode: 400,
    });

    const pe = await sdk('pods.lists.create', serialization.PodListEntry, () =>
      c.pods.lists.create(podId, 'send', 'allow', { entry: 'partner.test' }),
    );
    expect(pe.podId).toBe(podId);
    expect(
      (
        await sdk('pods.lists.list', serialization.PodListListEntriesResponse, () =>
          c.pods.lists.list(podId, 'send', 'allow'),
        )
      ).entries.map((x) => x.entry),
    ).toEqual(['partner.test']);
    expect(
      (
        await sdk('pods.lists.get', serialization.PodListEntry, () =>
          c.pods.lists.get(podId, 'send', 'allow', 'partner.test'),
        )
      ).entry,
    ).toBe('partner.test');
    await sdk('pods.lists.delete', undefined, () => c.pods.lists.delete(podId, 'send', 'allow', 'partner.test'));

    const ie = await sdk('inboxes.lists.create', serialization.PodListEntry, () =>
      c.inboxes.lists.create(podInbox, 'reply', 'block', { entry: 'x@y.test' }),
    );
    expect(ie).toMatchObject({ inboxId: podInbox, podId });
    expect(
      (
        await sdk('inboxes.lists.list', serialization.PodListListEntriesResponse, () =>
          c.inboxes.lists.list(podInbox, 'reply', 'block'),
        )
      ).count,
    ).toBe(1);
    expect(
      (
        await sdk('inboxes.lists.get', serialization.PodListEntry, () =>
          c.inboxes.lists.get(podInbox, 'reply', 'block', 'x@y.test'),
        )
      ).entry,
    ).toBe('x@y.test');
    await sdk('inboxes.lists.delete', undefined, () => c.inboxes.lists.delete(podInbox, 'reply', 'block', 'x@y.test'));
  });

  it('metrics: counts by event type over time, and usage, for the organization, a pod and an inbox', async () => {
    const start = new Date(Date.now() - 3_600_000);
    const end = new Date(Date.now() + 60_000);
    const org = await sdk('metrics.queryEvents', serialization.QueryMetricsResponse, () =>
      c.metrics.queryEvents({ eventTypes: ['message.sent', 'message.received'], start, end, period: 600 }),
    );
    const total = (xs?: Array<{ count: number }>) => (xs ?? []).reduce((n, b) => n + b.count, 0);
    // The thread with the first send was deleted for good: the sender's copy went with it, the recipient's copy stays.
    expect(total(org['message.sent'])).toBe(0);
    expect(total(org['message.received'])).toBe(1);
    expect(Object.keys(org).sort()).toEqual(['message.received', 'message.sent']);
    await c.inboxes.messages.send(podInbox, { to: otherInbox, subject: 'again', text: 'x' });
    const pod = await sdk('pods.metrics.queryEvents', serialization.QueryMetricsResponse, () =>
      c.pods.metrics.queryEvents(podId, { eventTypes: ['message.sent'], start, end, period: 600 }),
    );
    expect(total(pod['message.sent'])).toBe(1);
    const inbox = await sdk('inboxes.metrics.queryEvents', serialization.QueryMetricsResponse, () =>
      c.inboxes.metrics.queryEvents(otherInbox, { start, end, period: 3600 }),
    );
    expect(total(inbox['message.received'])).toBe(2);
    expect(total(inbox['message.sent'])).toBe(0);
    const usage = await sdk('metrics.queryUsage', serialization.QueryUsageResponse, () =>
      c.metrics.queryUsage({ start, end, period: 3600 }),
    );
    expect(
      usage.inbox_count?.at(-1)?.value ?? (usage as Record<string, Array<{ value: number }>>).inboxCount?.at(-1)?.value,
    ).toBe(3);
    const podUsage = await sdk('pods.metrics.queryUsage', serialization.QueryUsageResponse, () =>
      c.pods.metrics.queryUsage(podId, { usageTypes: ['message_count', 'inbox_count'], start, end, period: 3600 }),
    );
    expect(Object.keys(podUsage).sort()).toEqual(['inbox_count', 'message_count']);
    const inboxUsage = await sdk('inboxes.metrics.queryUsage', serialization.QueryUsageResponse, () =>
      c.inboxes.metrics.queryUsage(otherInbox, { start, end, period: 3600 }),
    );
    expect(inboxUsage.message_count?.at(-1)?.value).toBe(2);
    await expect(c.metrics.queryEvents({ period: 0 })).rejects.toMatchObject({ statusCode: 400 });
    await expect(c.inboxes.metrics.queryUsage(otherInbox, { usageTypes: ['pod_count'] })).rejects.toMatchObject({
      statusCode: 400,
    });
  });

  it('api keys: create (shown once), list, get, update, revoke; keys scoped to a pod or an inbox see only that', async () => {
    const created = (await sdk('apiKeys.create', serialization.CreateApiKeyResponse, () =>
      c.apiKeys.create({ name: 'ci', permissions: { inboxRead: true } }),
    )) as AgentMail.CreateApiKeyResponse;
    expect(created.apiKey).toMatch(/^hamlet_mail_/);
    expect(created.apiKey.startsWith(created.prefix)).toBe(true);
    const listed = await sdk('apiKeys.list', serialization.ListApiKeysResponse, () => c.apiKeys.list());
    expect(listed.apiKeys.map((k) => k.apiKeyId)).toEqual([created.apiKeyId]);
    expect(JSON.stringify(listed)).not.toContain(created.apiKey);
    expect((await sdk('apiKeys.get', serialization.ApiKey, () => c.apiKeys.get(created.apiKeyId))).name).toBe('ci');
    expect(
      (await sdk('apiKeys.update', serialization.ApiKey, () => c.apiKeys.update(created.apiKeyId, { name: 'ci-2' })))
        .name,
    ).toBe('ci-2');
    const ci = clientFor(created.apiKey);
    expect((await ci.inboxes.list()).count).toBe(3);
    await sdk('apiKeys.delete', undefined, () => c.apiKeys.delete(created.apiKeyId));
    await expect(ci.inboxes.list()).rejects.toMatchObject({ statusCode: 401 });

    const podKey = await sdk('pods.apiKeys.create', serialization.CreateApiKeyResponse, () =>
      c.pods.apiKeys.create(podId, { name: 'pod key' }),
    );
    expect(podKey.podId).toBe(podId);
    const pk = clientFor(podKey.apiKey);
    expect(await pk.auth.me()).toMatchObject({ scopeType: 'pod', scopeId: podId, podId });
    expect((await pk.inboxes.list()).inboxes.map((i) => i.inboxId)).toEqual([podInbox]);
    await expect(pk.inboxes.get(otherInbox)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    await expect(pk.pods.get(defaultPodId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    expect((await pk.pods.list()).pods.map((p) => p.podId)).toEqual([podId]);
    // A key made by a pod key stays inside the pod.
    expect((await pk.apiKeys.create({ name: 'child' })).podId).toBe(podId);
    expect(
      (await sdk('pods.apiKeys.list', serialization.ListApiKeysResponse, () => c.pods.apiKeys.list(podId))).apiKeys
        .length,
    ).toBe(2);
    expect(
      (
        await sdk('pods.apiKeys.update', serialization.ApiKey, () =>
          c.pods.apiKeys.update(podId, podKey.apiKeyId, { name: 'pod key 2' }),
        )
      ).name,
    ).toBe('pod key 2');
    await sdk('pods.apiKeys.delete', undefined, () => c.pods.apiKeys.delete(podId, podKey.apiKeyId));

    const inboxKey = (await sdk('inboxes.apiKeys.create', serialization.CreateApiKeyResponse, () =>
      c.inboxes.apiKeys.create(otherInbox, { name: 'inbox key' }),
    )) as AgentMail.CreateApiKeyResponse;
    expect(inboxKey).toMatchObject({ inboxId: otherInbox, podId: defaultPodId });
    const ik = clientFor(inboxKey.apiKey);
    expect(await ik.auth.me()).toMatchObject({
      scopeType: 'inbox',
      scopeId: otherInbox,
      inboxId: otherInbox,
      podId: defaultPodId,
    });
    expect((await ik.inboxes.list()).inboxes.map((i) => i.inboxId)).toEqual([otherInbox]);
    expect((await ik.threads.list()).threads.every((t) => t.inboxId === otherInbox)).toBe(true);
    await expect(ik.inboxes.messages.list(podInbox)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    await expect(ik.inboxes.create({ username: 'nope' })).rejects.toMatchObject({ statusCode: 403 });
    expect(
      (
        await sdk('inboxes.apiKeys.list', serialization.ListApiKeysResponse, () => c.inboxes.apiKeys.list(otherInbox))
      ).apiKeys.map((k) => k.apiKeyId),
    ).toEqual([inboxKey.apiKeyId]);
    expect(
      (
        await sdk('inboxes.apiKeys.update', serialization.ApiKey, () =>
          c.inboxes.apiKeys.update(otherInbox, inboxKey.apiKeyId, { permissions: { messageRead: true } }),
        )
      ).permissions,
    ).toEqual({ messageRead: true });
    await sdk('inboxes.apiKeys.delete', undefined, () => c.inboxes.apiKeys.delete(otherInbox, inboxKey.apiKeyId));
    await expect(ik.inboxes.list()).rejects.toMatchObject({ statusCode: 401 });
  });

  it('webhooks of a pod: create, list, get, headers, update, delete', async () => {
    const hook = await sdk('pods.webhooks.create', serialization.webhooks.Webhook, () =>
      c.pods.webhooks.create(podId, { url: 'https://example.com/hook', eventTypes: ['message.received'] }),
    );
    expect(hook.podIds).toEqual([podId]);
    expect(
      (
        await sdk('pods.webhooks.list', serialization.webhooks.ListWebhooksResponse, () => c.pods.webhooks.list(podId))
      ).webhooks.map((w) => w.webhookId),
    ).toEqual([hook.webhookId]);
    expect(
      (await sdk('pods.webhooks.get', serialization.webhooks.Webhook, () => c.pods.webhooks.get(podId, hook.webhookId)))
        .url,
    ).toBe('https://example.com/hook');
    await sdk('pods.webhooks.updateHeaders', serialization.webhooks.WebhookHeaderNamesResponse, () =>
      c.pods.webhooks.updateHeaders(podId, hook.webhookId, { headers: { 'x-team': 'sales' } }),
    );
    expect(
      (
        await sdk('pods.webhooks.getHeaders', serialization.webhooks.WebhookHeaderNamesResponse, () =>
          c.pods.webhooks.getHeaders(podId, hook.webhookId),
        )
      ).headerNames,
    ).toEqual(['x-team']);
    expect(
      (
        await sdk('pods.webhooks.update', serialization.webhooks.Webhook, () =>
          c.pods.webhooks.update(podId, hook.webhookId, { eventTypes: ['message.sent'] }),
        )
      ).eventTypes,
    ).toEqual(['message.sent']);
    await sdk('pods.webhooks.delete', undefined, () => c.pods.webhooks.delete(podId, hook.webhookId));
    // An organization webhook is not one of the pod's.
    const orgHook = await c.webhooks.create({ url: 'https://example.com/org', eventTypes: ['message.sent'] });
    await expect(c.pods.webhooks.get(podId, orgHook.webhookId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
  });

  it('webhooks of an inbox: create, list, get, headers, update, delete', async () => {
    const hook = await sdk('inboxes.webhooks.create', serialization.webhooks.Webhook, () =>
      c.inboxes.webhooks.create(otherInbox, {
        url: 'https://example.com/inbox-hook',
        eventTypes: ['message.received'],
      }),
    );
    expect(hook.inboxIds).toEqual([otherInbox]);
    expect(
      (
        await sdk('inboxes.webhooks.list', serialization.webhooks.ListWebhooksResponse, () =>
          c.inboxes.webhooks.list(otherInbox),
        )
      ).webhooks.map((w) => w.webhookId),
    ).toEqual([hook.webhookId]);
    expect((await c.inboxes.webhooks.list(podInbox)).webhooks).toEqual([]);
    expect(
      (
        await sdk('inboxes.webhooks.get', serialization.webhooks.Webhook, () =>
          c.inboxes.webhooks.get(otherInbox, hook.webhookId),
        )
      ).url,
    ).toBe('https://example.com/inbox-hook');
    await expect(c.inboxes.webhooks.get(podInbox, hook.webhookId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    await sdk('inboxes.webhooks.updateHeaders', serialization.webhooks.WebhookHeaderNamesResponse, () =>
      c.inboxes.webhooks.updateHeaders(otherInbox, hook.webhookId, { headers: { 'x-inbox': '1' } }),
    );
    expect(
      (
        await sdk('inboxes.webhooks.getHeaders', serialization.webhooks.WebhookHeaderNamesResponse, () =>
          c.inboxes.webhooks.getHeaders(otherInbox, hook.webhookId),
        )
      ).headerNames,
    ).toEqual(['x-inbox']);
    expect(
      (
        await sdk('inboxes.webhooks.update', serialization.webhooks.Webhook, () =>
          c.inboxes.webhooks.update(otherInbox, hook.webhookId, { eventTypes: ['message.sent'] }),
        )
      ).eventTypes,
    ).toEqual(['message.sent']);
    await sdk('inboxes.webhooks.delete', undefined, () => c.inboxes.webhooks.delete(otherInbox, hook.webhookId));
  });

  it('AgentID sign-in: the provider catalog, connect by magic link, authorize a waiting sign-in, the accounts and keys it leaves', async () => {
    /** A request to AgentID's side, which Hamlet plays under /agentid (no SDK calls it). */
    const agentid = async (method: string, path: string, body?: unknown, key?: string) => {
      const r = await fetch(`${env.api}/agentid${path}`, {
        method,
        headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: r.status, body: await r.json() };
    };
    const clientJwk = () => generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
    const register = async (body: Record<string, unknown>) => {
      const r = await agentid('POST', '/providers', body, env.key);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.provider_id as string;
    };
    expect((await agentid('POST', '/providers', { name: 'No key' })).status).toBe(401);
    const scrape = await register({
      name: 'Scrapewell',
      description: 'Web scraping API',
      terms_url: 'https://scrapewell.example/terms',
    });
    const search = await register({ name: 'Searchly' });
    const unlisted = await register({ name: 'Backroom', listed: false });
    const closed = await register({ name: 'Tiny', owner_signup_limit: 0 });

    // The catalog: listed providers only (no accounts yet: by name), a prefix search, one by id.
    const catalog = await sdk('providers.list', serialization.ListProvidersResponse, () => c.providers.list());
    expect(catalog.providers.map((p) => p.name)).toEqual(['Scrapewell', 'Searchly', 'Tiny']);
    expect(catalog.providers[0]).toMatchObject({
      providerId: scrape,
      description: 'Web scraping API',
      termsUrl: 'https://scrapewell.example/terms',
    });
    const page1 = await c.providers.list({ limit: 2 });
    expect(page1.providers.map((p) => p.name)).toEqual(['Scrapewell', 'Searchly']);
    expect((await c.providers.list({ limit: 2, pageToken: page1.nextPageToken })).providers.map((p) => p.name)).toEqual(
      ['Tiny'],
    );
    expect(
      (
        await sdk('providers.search', serialization.SearchProvidersResponse, () => c.providers.search({ q: 'SC' }))
      ).providers.map((p) => p.providerId),
    ).toEqual([scrape]);
    expect(await sdk('providers.get', serialization.Provider, () => c.providers.get(unlisted))).toEqual({
      providerId: unlisted,
      name: 'Backroom',
    });
    await expect(c.providers.get('00000000-0000-4000-8000-000000000000')).rejects.toBeInstanceOf(
      AgentMail.NotFoundError,
    );

    // Connect: a pending public key and a magic link; the client opens it and proves its key.
    const connected = await sdk('providers.connect', serialization.ConnectAccepted, () =>
      c.providers.connect(scrape, { inboxId: otherInbox }),
    );
    expect(connected.magicUrl.startsWith(`${env.api}/agentid/sign-ins/`)).toBe(true);
    expect(await c.apiKeys.get(connected.apiKeyId)).toMatchObject({
      type: 'public_key',
      status: 'pending',
      inboxId: otherInbox,
      podId: defaultPodId,
      permissions: { providerConnect: true, providerShareOwner: true },
    });
    const opened = await fetch(connected.magicUrl);
    expect(await opened.json()).toMatchObject({
      status: 'authorized',
      inbox_id: otherInbox,
      provider: { provider_id: scrape },
    });
    const jwk = clientJwk();
    const done = await agentid('POST', `/sign-ins/${connected.magicUrl.split('/').pop()}/complete`, {
      public_key: jwk,
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    const activeKey = await c.apiKeys.get(connected.apiKeyId);
    expect(activeKey).toMatchObject({
      type: 'public_key',
      status: 'active',
      publicKey: { jwk: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y } },
    });
    expect((activeKey as AgentMail.PublicKeyCredential).publicKey!.fingerprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((activeKey as AgentMail.PublicKeyCredential).expiresAt).toBeInstanceOf(Date);
    // A magic link is used once.
    expect(
      (await agentid('POST', `/sign-ins/${connected.magicUrl.split('/').pop()}/complete`, { public_key: jwk })).status,
    ).toBe(409);

    // Authorize: a client waits at Searchly's sign-in with its key; the agent authorizes the token it shows.
    const waiting = await agentid('POST', '/sign-ins', { provider_id: search, public_key: clientJwk() });
    expect(waiting.body.auth_token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect((await agentid('POST', `/sign-ins/${waiting.body.auth_token}/complete`, null)).status).toBe(409);
    const authorized = await sdk('inboxes.authorize', serialization.inboxes.AuthorizeInboxResponse, () =>
      c.inboxes.authorize(otherInbox, { authToken: waiting.body.auth_token }),
    );
    expect(authorized.instructions).toBe('Authorization complete. Return to browser.');
    // A repeat for the same token, inbox and key answers the same key; another inbox finds no pending sign-in.
    expect((await c.inboxes.authorize(otherInbox, { authToken: waiting.body.auth_token })).apiKeyId).toBe(
      authorized.apiKeyId,
    );
    await expect(c.inboxes.authorize(podInbox, { authToken: waiting.body.auth_token })).rejects.toBeInstanceOf(
      AgentMail.NotFoundError,
    );
    await expect(c.inboxes.authorize(otherInbox, { authToken: 'A'.repeat(22) })).rejects.toBeInstanceOf(
      AgentMail.NotFoundError,
    );
    await expect(c.inboxes.authorize(otherInbox, { authToken: 'short' })).rejects.toBeInstanceOf(
      AgentMail.ValidationError,
    );
    expect((await agentid('POST', `/sign-ins/${waiting.body.auth_token}/complete`, null)).status).toBe(200);
    expect(await c.apiKeys.get(authorized.apiKeyId)).toMatchObject({ status: 'active' });

    // A second sign-in at Scrapewell counts on the same account.
    const again = await c.providers.connect(scrape, { inboxId: otherInbox });
    expect(
      (await agentid('POST', `/sign-ins/${again.magicUrl.split('/').pop()}/complete`, { public_key: clientJwk() })).body
        .account.sign_in_count,
    ).toBe(2);

    // The accounts: most recent sign-in first, with the provider's name; per provider with the provider.
    const accounts = await sdk('accounts.list', serialization.ListAccountsResponse, () => c.accounts.list());
    expect(accounts.accounts.map((a) => [a.providerName, a.signInCount])).toEqual([
      ['Scrapewell', 2],
      ['Searchly', 1],
    ]);
    expect(accounts.accounts[0]).toMatchObject({ inboxId: otherInbox, podId: defaultPodId, providerId: scrape });
    expect((await c.accounts.list({ ascending: true })).accounts.map((a) => a.providerName)).toEqual([
      'Searchly',
      'Scrapewell',
    ]);
    expect(
      await sdk('accounts.get', serialization.Account, () => c.accounts.get(accounts.accounts[1].accountId)),
    ).toMatchObject({ providerId: search, signInCount: 1 });
    const atScrape = await sdk('providers.listAccounts', serialization.ListProviderAccountsResponse, () =>
      c.providers.listAccounts(scrape),
    );
    expect(atScrape.provider).toMatchObject({ providerId: scrape, name: 'Scrapewell' });
    expect(atScrape.accounts.map((a) => a.accountId)).toEqual([accounts.accounts[0].accountId]);
    // The catalog puts the providers with the most accounts first now.
    expect((await c.providers.list()).providers.map((p) => p.name)).toEqual(['Scrapewell', 'Searchly', 'Tiny']);

    // The keys: both families listed, the sign-in keys alone by type; one is revoked like any key.
    const signInKeys = await c.apiKeys.list({ type: 'public_key' });
    expect(signInKeys.apiKeys.map((k) => k.apiKeyId).sort()).toEqual(
      [connected.apiKeyId, authorized.apiKeyId, again.apiKeyId].sort(),
    );
    await c.apiKeys.delete(authorized.apiKeyId);
    await expect(c.apiKeys.get(authorized.apiKeyId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);

    // Refusals: a provider that takes no more sign-ups (403), an inbox to name (400), a key without provider_connect (403).
    await expect(c.providers.connect(closed, { inboxId: otherInbox })).rejects.toMatchObject({ statusCode: 403 });
    await expect(c.providers.connect(scrape)).rejects.toBeInstanceOf(AgentMail.ValidationError);
    const reader = (await c.apiKeys.create({
      name: 'reader',
      permissions: { inboxRead: true },
    })) as AgentMail.CreateApiKeyResponse;
    const rc = clientFor(reader.apiKey);
    await expect(rc.providers.connect(scrape, { inboxId: otherInbox })).rejects.toMatchObject({ statusCode: 403 });
    expect((await rc.accounts.list()).count).toBe(2);
    await c.apiKeys.delete(reader.apiKeyId);
    // A client's key that is not a public P-256 key is refused.
    expect(
      (
        await agentid('POST', '/sign-ins', {
          provider_id: search,
          public_key: { kty: 'EC', crv: 'P-256', x: 'a', y: 'b' },
        })
      ).status,
    ).toBe(400);
  });

  it('deletes an empty pod', async () => {
    await c.pods.inboxes.delete(podId, podInbox);
    called.add('pods.inboxes.delete');
    await sdk('pods.delete', undefined, () => c.pods.delete(podId));
    await expect(c.pods.get(podId)).rejects.toBeInstanceOf(AgentMail.NotFoundError);
    // Left: plain-bot and sales@example-corp.test; both domains were deleted.
    expect(await c.organizations.get()).toMatchObject({ inboxCount: 2, domainCount: 0 });
  });

  it('called every method of these SDK areas, and the SDK printed no "Failed to validate" warning', () => {
    const expected = [
      ...AREAS.flatMap((area) => methodsOf(area.split('.').reduce<any>((o, k) => o[k], c)).map((m) => `${area}.${m}`)),
      ...EXTRA,
    ];
    expect(expected.filter((m) => !called.has(m))).toEqual([]);
    expect(warn.warnings.filter((w) => w.includes('Failed to validate'))).toEqual([]);
  });
});
