// API keys minted with permissions may do only what they grant (AgentMail's ApiKeyPermissions):
// every route needs its resource's read/create/update/delete (or send) permission, include_*
// of hidden labels needs label_*_read, a changed grant applies at once, and a limited key
// cannot mint a key with more than it has.
import { AgentMailClient } from 'agentmail';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { permissionFor } from '../../src/services/mail/api-keys/permissions.js';
import { startMail, type MailTestEnv } from './helpers.js';

describe('mail API key permissions', () => {
  let env: MailTestEnv;
  let inbox: string;

  beforeAll(async () => {
    env = await startMail();
    inbox = (await env.client.inboxes.create({ username: 'perm' })).inboxId;
  });
  afterAll(async () => env?.t.destroy());

  const clientOf = (apiKey: string) => new AgentMailClient({ apiKey, baseUrl: env.api, maxRetries: 0 });

  it('names the permission of each route by its resource and verb', () => {
    expect(permissionFor('GET', '/v0/inboxes')).toBe('inbox_read');
    expect(permissionFor('POST', '/v0/pods/:pod_id/inboxes')).toBe('inbox_create');
    expect(permissionFor('GET', '/v0/inboxes/:inbox_id/threads/:thread_id')).toBe('message_read');
    expect(permissionFor('DELETE', '/v0/threads/:thread_id')).toBe('message_delete');
    expect(permissionFor('PATCH', '/v0/inboxes/:inbox_id/messages/:message_id')).toBe('message_update');
    expect(permissionFor('POST', '/v0/inboxes/:inbox_id/messages/:message_id/reply-all')).toBe('message_send');
    expect(permissionFor('POST', '/v0/inboxes/:inbox_id/messages/batch-get')).toBe('message_read');
    expect(permissionFor('POST', '/v0/inboxes/:inbox_id/drafts/:draft_id/send')).toBe('draft_send');
    expect(permissionFor('PATCH', '/v0/webhooks/:webhook_id/headers')).toBe('webhook_update');
    expect(permissionFor('POST', '/v0/domains/:domain_id/verify')).toBe('domain_update');
    expect(permissionFor('POST', '/v0/inboxes/:inbox_id/lists/:direction/:list_type')).toBe('list_entry_create');
    expect(permissionFor('GET', '/v0/pods/:pod_id/metrics/usage')).toBe('metrics_read');
    expect(permissionFor('DELETE', '/v0/pods/:pod_id/api-keys/:api_key_id')).toBe('api_key_delete');
    expect(permissionFor('GET', '/v0/auth/me')).toBeUndefined();
  });

  it('a key may do only what it grants, and a changed grant applies at once', async () => {
    const made = (await env.client.apiKeys.create({ name: 'reader', permissions: { inboxRead: true } })) as {
      apiKey: string;
      apiKeyId: string;
    };
    const reader = clientOf(made.apiKey);
    expect((await reader.inboxes.list()).inboxes.map((i) => i.inboxId)).toEqual([inbox]);
    await expect(reader.inboxes.create({ username: 'nope' })).rejects.toMatchObject({
      statusCode: 403,
      body: { error: { details: { code: 'MISSING_PERMISSION' } } },
    });
    await expect(reader.inboxes.messages.list(inbox)).rejects.toMatchObject({ statusCode: 403 });
    await expect(reader.inboxes.messages.send(inbox, { to: inbox, text: 'x' })).rejects.toMatchObject({
      statusCode: 403,
    });
    expect((await reader.auth.me()).apiKeyId).toBe(made.apiKeyId);

    await env.client.apiKeys.update(made.apiKeyId, { permissions: { inboxRead: true, messageRead: true } });
    expect((await reader.inboxes.messages.list(inbox)).count).toBe(0);
    // Trash is a label of its own: listing it needs label_trash_read.
    await expect(reader.inboxes.messages.list(inbox, { includeTrash: true })).rejects.toMatchObject({
      statusCode: 403,
    });
    await expect(reader.inboxes.threads.delete(inbox, 'thd_x')).rejects.toMatchObject({ statusCode: 403 });
  });

  it('a limited key mints keys with at most its own permissions', async () => {
    const made = (await env.client.apiKeys.create({
      name: 'minter',
      permissions: { apiKeyCreate: true, inboxRead: true },
    })) as { apiKey: string };
    const minter = clientOf(made.apiKey);
    const child = (await minter.apiKeys.create({
      name: 'child',
      permissions: { inboxRead: true, inboxCreate: true, apiKeyCreate: true },
    })) as { apiKey: string; permissions?: Record<string, boolean> };
    expect(child.permissions).toEqual({ inboxRead: true, inboxCreate: false, apiKeyCreate: true });
    await expect(clientOf(child.apiKey).inboxes.create({ username: 'escalated' })).rejects.toMatchObject({
      statusCode: 403,
    });
    const unasked = (await minter.apiKeys.create({ name: 'copy' })) as { permissions?: Record<string, boolean> };
    expect(unasked.permissions).toEqual({ apiKeyCreate: true, inboxRead: true });
  });
});
