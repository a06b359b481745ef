// Webhooks that cannot be delivered are said so: a URL of an internal address is refused at
// create and update (naming HAMLET_ALLOW_INTERNAL_REQUESTS) unless the operator allows them,
// and failed deliveries show on the webhook (status, attempts, last error).
import { Writable } from 'node:stream';
import { AgentMail, AgentMailClient, serialization } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/platform/logger.js';
import { startHamlet, type Hamlet } from '../../src/server.js';
import { testEnv, testStorage } from '../helpers/hamlet.js';
import { waitFor } from '../helpers/wait.js';
import { startMail, webhookReceiver, type MailTestEnv } from './helpers.js';

const strict = (raw: unknown) => {
  const r = serialization.webhooks.Webhook.parse(raw, { unrecognizedObjectKeys: 'passthrough' });
  if (!r.ok) throw new Error(`schema mismatch: ${JSON.stringify(r.errors)}`);
};

const INTERNAL = [
  'http://127.0.0.1:9/hook',
  'http://localhost:8080/hook',
  'http://api.localhost/hook',
  'http://10.1.2.3/hook',
  'http://192.168.1.1/hook',
  'http://169.254.169.254/latest/meta-data',
  'http://[::1]:8080/hook',
  'http://[::ffff:7f00:1]/hook',
  'http://2130706433/hook', // 127.0.0.1 as one number
];

describe('webhooks to internal addresses, internal requests not allowed', () => {
  let env: MailTestEnv;
  beforeAll(async () => {
    env = await startMail({ env: { HAMLET_ALLOW_INTERNAL_REQUESTS: '0' } });
  });
  afterAll(async () => env?.t.destroy());

  it('refuses them at create with a 400 in the mail envelope naming the setting', async () => {
    for (const url of INTERNAL) {
      const res = await env.call('POST', '/v0/webhooks', { url });
      expect(res.status, url).toBe(400);
      expect(res.body.error.details).toMatchObject({ field: 'url', code: 'INTERNAL_URL' });
      expect(res.body.message).toContain('HAMLET_ALLOW_INTERNAL_REQUESTS');
      expect(res.body.name).toBeTruthy();
    }
    // The SDK sees a validation error, not a webhook.
    await expect(
      env.client.webhooks.create({ url: 'http://127.0.0.1:9/hook', eventTypes: ['message.received'] }),
    ).rejects.toBeInstanceOf(AgentMail.ValidationError);
    expect((await env.client.webhooks.list()).webhooks).toEqual([]);
  });

  it('accepts a public address, and refuses an update to an internal one', async () => {
    const hook = await env.client.webhooks.create({
      url: 'http://93.184.216.34/hook',
      eventTypes: ['message.received'],
    });
    expect(hook.enabled).toBe(true);
    const res = await env.call('PATCH', `/v0/webhooks/${hook.webhookId}`, { url: 'http://10.0.0.5/hook' });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('HAMLET_ALLOW_INTERNAL_REQUESTS');
    expect((await env.client.webhooks.get(hook.webhookId)).url).toBe('http://93.184.216.34/hook');
  });
});

describe('webhook delivery status, internal requests allowed', () => {
  let env: MailTestEnv;
  let failing: Awaited<ReturnType<typeof webhookReceiver>>;
  let healthy: Awaited<ReturnType<typeof webhookReceiver>>;
  beforeAll(async () => {
    // The helpers' environment allows internal requests (HAMLET_ALLOW_INTERNAL_REQUESTS=1); retries at 200ms, 400ms, 1s.
    env = await startMail();
    failing = await webhookReceiver(() => 503);
    healthy = await webhookReceiver();
  });
  afterAll(async () => {
    await failing?.close();
    await healthy?.close();
    await env?.t.destroy();
  });

  it('accepts an internal URL when the operator allows it', async () => {
    const hook = await env.call('POST', '/v0/webhooks', { url: 'http://127.0.0.1:9/hook' });
    expect(hook.status).toBe(200);
    await env.client.webhooks.delete(hook.body.webhook_id);
  });

  it('shows failed deliveries on the webhook: retrying, then failed with the attempts and the last error', async () => {
    const inbox = (await env.client.inboxes.create({ username: 'hooked' })).inboxId;
    const hook = await env.client.webhooks.create({
      url: failing.url,
      eventTypes: ['message.received'],
      inboxIds: [inbox],
    });
    const fresh = await env.call('GET', `/v0/webhooks/${hook.webhookId}`);
    expect(fresh.body.last_delivery_status).toBeUndefined();

    await env.client.inboxes.messages.send(inbox, { to: inbox, subject: 'Nobody answers', text: 'x' });
    const retrying = await waitFor(
      async () => {
        const r = (await env.call('GET', `/v0/webhooks/${hook.webhookId}`)).body;
        return r.last_delivery_status === 'retrying' ? r : undefined;
      },
      { intervalMs: 20, message: 'a retrying status' },
    );
    expect(retrying.last_delivery_error).toContain('503');

    const failed = await waitFor(
      async () => {
        const r = (await env.call('GET', `/v0/webhooks/${hook.webhookId}`)).body;
        return r.last_delivery_status === 'failed' ? r : undefined;
      },
      { timeoutMs: 15_000, message: 'a failed status' },
    );
    expect(failed).toMatchObject({ last_delivery_attempts: 4, enabled: true });
    expect(failed.last_delivery_error).toBe(`delivery to ${failing.url} answered 503`);
    expect(Date.parse(failed.last_error_at)).not.toBeNaN();
    expect(failing.attempts()).toBe(4);
    // The extra fields pass the SDK's own schema, and the SDK reads the webhook as before.
    strict(failed);
    expect((await env.client.webhooks.get(hook.webhookId)).webhookId).toBe(hook.webhookId);
    const listed = (await env.call('GET', '/v0/webhooks')).body.webhooks.find(
      (w: any) => w.webhook_id === hook.webhookId,
    );
    expect(listed.last_delivery_status).toBe('failed');

    // Pointed at a receiver that answers: the status starts over, and a success is shown.
    const moved = await env.call('PATCH', `/v0/webhooks/${hook.webhookId}`, { url: healthy.url });
    expect(moved.body.last_delivery_status).toBeUndefined();
    await env.client.inboxes.messages.send(inbox, { to: inbox, subject: 'Someone answers', text: 'y' });
    await healthy.waitFor((e) => e.message?.subject === 'Someone answers');
    const ok = await waitFor(
      async () => {
        const r = (await env.call('GET', `/v0/webhooks/${hook.webhookId}`)).body;
        return r.last_delivery_status === 'succeeded' ? r : undefined;
      },
      { message: 'a succeeded status' },
    );
    expect(ok.last_delivery_attempts).toBe(1);
  });
});

describe('failed deliveries and held mail in the log', () => {
  let hamlet: Hamlet | undefined;
  let storage: Awaited<ReturnType<typeof testStorage>> | undefined;
  let failing: Awaited<ReturnType<typeof webhookReceiver>> | undefined;
  afterAll(async () => {
    await hamlet?.stop();
    await failing?.close();
    await storage?.drop();
  });

  it('logs each failed attempt (webhook, URL, attempt, error) and each message held for a relay', async () => {
    storage = await testStorage();
    failing = await webhookReceiver(() => 500);
    const lines: Array<Record<string, unknown>> = [];
    const destination = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const config = loadConfig(
      testEnv(storage, ['mail'], {
        HAMLET_ALLOW_INTERNAL_REQUESTS: '1',
        MAIL_DOMAIN: 'mail.test',
        MAIL_WEBHOOK_RETRY_SCHEDULE: '100ms',
      }),
    );
    hamlet = await startHamlet(config, { logger: createLogger({ level: 'info', pretty: false, destination }) });
    const { key } = await hamlet.platform.keys.create('mail', { name: 'log test' });
    const client = new AgentMailClient({ apiKey: key, baseUrl: hamlet.services.mail!.urls.api, maxRetries: 0 });
    const inbox = (await client.inboxes.create({ username: 'logged' })).inboxId;
    const hook = await client.webhooks.create({
      url: failing.url,
      eventTypes: ['message.received'],
      inboxIds: [inbox],
    });
    await client.inboxes.messages.send(inbox, { to: [inbox, 'far@outside.test'], subject: 'Log me', text: 'x' });

    const final = await waitFor(() => lines.find((l) => l.msg === 'webhook delivery failed for good'), {
      message: 'the final failure in the log',
    });
    const retry = lines.find((l) => l.msg === 'webhook delivery failed, will retry');
    expect(retry).toMatchObject({
      level: 40,
      webhook: hook.webhookId,
      url: failing.url,
      attempt: 1,
      final: false,
      err: `delivery to ${failing.url} answered 500`,
    });
    expect(final).toMatchObject({ webhook: hook.webhookId, attempt: 2, final: true });
    const held = lines.find(
      (l) => typeof l.msg === 'string' && l.msg.startsWith('mail to other domains held in the outbox'),
    );
    expect(held).toMatchObject({ level: 30, inbox, to: ['far@outside.test'] });
    expect(held!.msg).toContain('HAMLET_SMTP_RELAY');
  });
});
