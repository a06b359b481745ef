// Custom domains end to end: the DNS records the API hands out are published on a local DNS
// server, the service verifies them with real DNS lookups (MAIL_DNS_RESOLVER points at it),
// and mail sent from the verified domain carries a DKIM signature that mailauth's verifier
// accepts against the published key, and rejects once the message is altered.
import { Resolver } from 'node:dns/promises';
import { serialization } from 'agentmail';
import { dkimVerify } from 'mailauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from './dns-server.js';
import { startMail, webhookReceiver, type MailTestEnv } from './helpers.js';

describe('mail custom domains and DKIM', () => {
  let env: MailTestEnv;
  let dns: Awaited<ReturnType<typeof startDnsServer>>;
  let resolver: Resolver;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;

  beforeAll(async () => {
    dns = await startDnsServer();
    resolver = new Resolver();
    resolver.setServers([dns.address]);
    env = await startMail({ env: { MAIL_DNS_RESOLVER: dns.address, MAIL_MX_HOST: 'mx.hamlet.test' } });
    hooks = await webhookReceiver();
    await env.client.webhooks.create({ url: hooks.url, eventTypes: ['domain.verified'] });
  });
  afterAll(async () => {
    await hooks?.close();
    await env?.t.destroy();
    await dns?.close();
  });

  /** The raw message as stored (signed at send time, so the sender's copy and the recipients' carry the same signature). */
  async function rawOf(inbox: string, messageId: string): Promise<Buffer> {
    const link = await env.client.inboxes.messages.getRaw(inbox, messageId);
    return Buffer.from(await (await fetch(link.downloadUrl)).arrayBuffer());
  }

  const verify = (raw: Buffer | string) =>
    dkimVerify(raw, {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });

  it('verifies by DNS, then signs mail from the domain so that a DKIM verifier accepts it against the published key', async () => {
    const c = env.client;
    const domain = await c.domains.create({ domain: 'acme.test' });
    const records = domain.records;
    const dkimRecord = records.find((r) => r.name.endsWith('._domainkey.acme.test'))!;

    // Nothing published yet: still pending, each record missing; inboxes on it are refused.
    await c.domains.verify('acme.test');
    const pending = await c.domains.get('acme.test');
    expect(pending.status).toBe('PENDING');
    expect(pending.records.map((r) => r.status)).toEqual(['MISSING', 'MISSING', 'MISSING', 'MISSING']);
    await expect(c.inboxes.create({ username: 'ceo', domain: 'acme.test' })).rejects.toMatchObject({ statusCode: 400 });

    // A wrong DKIM key is INVALID, not missing.
    dns.publish(dkimRecord.name, { type: 'TXT', value: 'v=DKIM1; k=rsa; p=AAAA' });
    await c.domains.verify('acme.test');
    const wrong = await c.domains.get('acme.test');
    expect(wrong.status).toBe('INVALID');
    expect(wrong.records.find((r) => r.name === dkimRecord.name)).toMatchObject({
      status: 'INVALID',
      reason: 'value_mismatch',
    });

    dns.unpublish(dkimRecord.name);
    for (const r of records)
      dns.publish(
        r.name,
        r.type === 'MX' ? { type: 'MX', value: r.value, priority: r.priority! } : { type: 'TXT', value: r.value },
      );
    await c.domains.verify('acme.test');
    expect((await c.domains.get('acme.test')).status).toBe('VERIFIED');
    // Webhooks hear it once, in AgentMail's shape (the SDK's strict parser accepts it).
    const { event } = await hooks.waitFor((e) => e.event_type === 'domain.verified' && e.domain.domain === 'acme.test');
    expect(serialization.events.DomainVerifiedEvent.parse(event)).toMatchObject({ ok: true });
    expect(event.domain.status).toBe('VERIFIED');
    await c.domains.verify('acme.test');
    expect(hooks.received.filter((r) => JSON.parse(r.body).domain?.domain === 'acme.test')).toHaveLength(1);

    const ceo = (await c.inboxes.create({ username: 'ceo', domain: 'acme.test', displayName: 'The CEO' })).inboxId;
    const reader = (await c.inboxes.create({ username: 'reader' })).inboxId;
    const sent = await c.inboxes.messages.send(ceo, {
      to: reader,
      subject: 'Signed',
      text: 'Authentic mail.',
      html: '<p>Authentic mail.</p>',
    });

    const raw = await rawOf(reader, sent.messageId);
    expect(raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; d=acme\.test;/m);
    const good = await verify(raw);
    expect(good.results).toHaveLength(1);
    expect(good.results[0]).toMatchObject({
      signingDomain: 'acme.test',
      selector: dkimRecord.name.split('.')[0],
      status: { result: 'pass' },
    });

    // Altered in transit: the body hash no longer matches.
    const tampered = raw.toString().replace('Authentic mail.', 'Forged mail!!!');
    expect((await verify(tampered)).results[0].status.result).toBe('neutral');
    expect((await verify(tampered)).results[0].status.comment).toMatch(/body hash did not verify/);
  });

  it('does not sign mail from a domain that is not verified here', async () => {
    const c = env.client;
    const plain = (await c.inboxes.create({ username: 'plain' })).inboxId;
    const reader = (await c.inboxes.create({ username: 'reader2' })).inboxId;
    const sent = await c.inboxes.messages.send(plain, { to: reader, subject: 'Unsigned', text: 'x' });
    expect((await rawOf(reader, sent.messageId)).toString()).not.toContain('DKIM-Signature');
  });

  it('marks a domain verified by hand where there is no DNS, and signs its mail with the key it publishes', async () => {
    const c = env.client;
    const d = await c.domains.create({ domain: 'offline.test' });
    const marked = await env.call('POST', '/v0/domains/offline.test/mark-verified');
    expect(marked.status).toBe(200);
    expect(marked.body.status).toBe('VERIFIED');
    const from = (await c.inboxes.create({ username: 'ops', domain: 'offline.test' })).inboxId;
    const to = (await c.inboxes.create({ username: 'reader3' })).inboxId;
    const sent = await c.inboxes.messages.send(from, { to, subject: 'Offline', text: 'x' });
    const raw = await rawOf(to, sent.messageId);
    // Its key is the one the domain's record names, so the mail verifies once that record is published.
    const key = d.records.find((r) => r.name.includes('._domainkey.'))!;
    dns.publish(key.name, { type: 'TXT', value: key.value });
    expect((await verify(raw)).results[0]).toMatchObject({ signingDomain: 'offline.test', status: { result: 'pass' } });
  });

  it("takes SMTP mail for a verified domain's inboxes", async () => {
    const { smtpSend } = await import('./helpers.js');
    const inbox = (await env.client.inboxes.create({ username: 'sales', domain: 'acme.test' })).inboxId;
    const reply = await smtpSend(
      env.smtpPort,
      'buyer@example.com',
      [inbox],
      'From: buyer@example.com\r\nTo: sales@acme.test\r\nSubject: Order\r\n\r\nHello',
    );
    expect(reply).toMatch(/^250/);
    expect((await env.client.inboxes.messages.list(inbox)).messages.map((m) => m.subject)).toEqual(['Order']);
  });
});
