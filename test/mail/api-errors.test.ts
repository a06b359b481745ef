// Bad input at every endpoint gets a 4xx in the mail envelope naming the field and changes
// nothing; keys see only their own organization; the contract's limits answer 429 + Retry-After.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMail, type MailTestEnv } from './helpers.js';

const enc = encodeURIComponent;

describe('bad input', () => {
  let env: MailTestEnv;
  let inbox: string;
  let messageId: string;
  let webhookId: string;

  beforeAll(async () => {
    env = await startMail();
    inbox = (await env.client.inboxes.create({ username: 'errors', displayName: 'Errors' })).inboxId;
    messageId = (await env.client.inboxes.messages.send(inbox, { to: inbox, subject: 'self', text: 'x' })).messageId;
    webhookId = (await env.client.webhooks.create({ url: 'http://127.0.0.1:9/x', eventTypes: ['message.received'] }))
      .webhookId;
  });
  afterAll(async () => env?.t.destroy());

  const cases: Array<[string, string, () => string, unknown, number, string?]> = [
    ['create inbox with a bad username', 'POST', () => '/v0/inboxes', { username: 'bad name!' }, 400, 'username'],
    ['create inbox with a client_id holding @', 'POST', () => '/v0/inboxes', { client_id: 'a@b' }, 400, 'client_id'],
    [
      'create inbox with a number for display_name',
      'POST',
      () => '/v0/inboxes',
      { display_name: 5 },
      400,
      'display_name',
    ],
    ['update inbox with nothing', 'PATCH', () => `/v0/inboxes/${enc(inbox)}`, {}, 400],
    ['update inbox with empty metadata', 'PATCH', () => `/v0/inboxes/${enc(inbox)}`, { metadata: {} }, 400, 'metadata'],
    ['list with limit 0', 'GET', () => '/v0/inboxes?limit=0', undefined, 400, 'limit'],
    ['list with limit abc', 'GET', () => `/v0/inboxes/${enc(inbox)}/messages?limit=abc`, undefined, 400, 'limit'],
    [
      'list with a bad date',
      'GET',
      () => `/v0/inboxes/${enc(inbox)}/messages?before=yesterday`,
      undefined,
      400,
      'before',
    ],
    [
      'list with a bad labels array',
      'GET',
      () => `/v0/inboxes/${enc(inbox)}/messages?labels=${enc('[1,2')}`,
      undefined,
      400,
      'labels',
    ],
    [
      'list messages with a garbage token',
      'GET',
      () => `/v0/inboxes/${enc(inbox)}/messages?page_token=zzz`,
      undefined,
      400,
      'page_token',
    ],
    [
      'list threads with a garbage token',
      'GET',
      () => `/v0/inboxes/${enc(inbox)}/threads?page_token=zzz`,
      undefined,
      400,
      'page_token',
    ],
    [
      'send with a reserved header',
      'POST',
      () => `/v0/inboxes/${enc(inbox)}/messages`,
      { to: 'INBOX', headers: { 'Message-ID': '<x@y>' } },
      400,
      'headers.Message-ID',
    ],
    [
      'send with bad base64',
      'POST',
      () => `/v0/inboxes/${enc(inbox)}/messages`,
      { to: 'INBOX', attachments: [{ filename: 'a', content: '***' }] },
      400,
      'attachments[0].content',
    ],
    ['send with a bad cc', 'POST', () => `/v0/inboxes/${enc(inbox)}/messages`, { to: 'INBOX', cc: ['x@'] }, 400, 'cc'],
    [
      'send from an unknown inbox',
      'POST',
      () => `/v0/inboxes/${enc('nobody@mail.test')}/messages`,
      { to: 'INBOX' },
      404,
    ],
    ['get an unknown message', 'GET', () => `/v0/inboxes/${enc(inbox)}/messages/${enc('<nope@x>')}`, undefined, 404],
    [
      'reply to an unknown message',
      'POST',
      () => `/v0/inboxes/${enc(inbox)}/messages/${enc('<nope@x>')}/reply`,
      { text: 'x' },
      404,
    ],
    [
      'update labels with a number',
      'PATCH',
      () => `/v0/inboxes/${enc(inbox)}/messages/${enc(messageId)}`,
      { add_labels: [5] },
      400,
    ],
    [
      'an unknown attachment',
      'GET',
      () => `/v0/inboxes/${enc(inbox)}/messages/${enc(messageId)}/attachments/att_9`,
      undefined,
      404,
    ],
    ['an unknown thread', 'GET', () => `/v0/inboxes/${enc(inbox)}/threads/nope`, undefined, 404],
    [
      'a webhook with an unknown event type',
      'POST',
      () => '/v0/webhooks',
      { url: 'http://x.test/', event_types: ['message.exploded'] },
      400,
      'event_types',
    ],
    ['a webhook without url', 'POST', () => '/v0/webhooks', { event_types: ['message.received'] }, 400, 'url'],
    [
      'a webhook with 11 inboxes',
      'POST',
      () => '/v0/webhooks',
      { url: 'http://x.test/', inbox_ids: Array(11).fill('a@b.c') },
      400,
      'inbox_ids',
    ],
    [
      'update a webhook with a bad url',
      'PATCH',
      () => `/v0/webhooks/${webhookId}`,
      { url: 'javascript:alert(1)' },
      400,
      'url',
    ],
    [
      'a webhook header that spoofs the signature',
      'PATCH',
      () => `/v0/webhooks/${webhookId}/headers`,
      { headers: { 'svix-signature': 'x' } },
      400,
    ],
    ['an unknown webhook', 'DELETE', () => '/v0/webhooks/ep_nope', undefined, 404],
    // NUL characters are refused by the platform for every service (PostgreSQL cannot store them).
    ['a NUL in a display name', 'POST', () => '/v0/inboxes', { display_name: 'a\u0000b' }, 400],
    [
      'a NUL in a webhook client_id',
      'POST',
      () => '/v0/webhooks',
      { url: 'http://x.test/', client_id: 'a\u0000' },
      400,
    ],
    ['a NUL in a path', 'GET', () => '/v0/inboxes/a%00b', undefined, 400],
    ['a NUL in a filter', 'GET', () => `/v0/inboxes/${enc(inbox)}/messages?subject=%00`, undefined, 400],
    ['an unknown route', 'GET', () => '/v0/nothing-here', undefined, 404],
  ];

  it.each(cases)('%s → %i', async (_name, method, path, body, status, field) => {
    // Bodies are written before the inbox exists: 'INBOX' stands for its address.
    const res = await env.call(
      method,
      path(),
      body === undefined ? undefined : JSON.parse(JSON.stringify(body).replaceAll('"INBOX"', JSON.stringify(inbox))),
    );
    expect(res.status).toBe(status);
    expect(res.body.error.type).toBeTruthy();
    expect(res.body.error.message).toBeTruthy();
    expect(res.body.name).toBeTruthy();
    expect(res.body.message).toBe(res.body.error.message);
    if (field) expect(res.body.error.details.field).toBe(field);
  });

  it('rejects a body that is not JSON and changes nothing', async () => {
    const res = await fetch(`${env.api}/v0/inboxes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${env.key}`, 'content-type': 'text/plain' },
      body: 'hello',
    });
    expect([400, 415]).toContain(res.status);
    const inboxes = await env.client.inboxes.list();
    expect(inboxes.inboxes.map((i) => i.inboxId)).toEqual([inbox]);
    const m = await env.client.inboxes.messages.get(inbox, messageId);
    // An inbox writing to itself keeps one record with both labels.
    expect(m.labels).toEqual(expect.arrayContaining(['sent', 'received', 'unread']));
    expect((await env.client.inboxes.messages.list(inbox)).count).toBe(1);
  });

  it("keeps organizations apart: another owner's key sees none of this", async () => {
    const { key } = await env.t.hamlet.platform.keys.create('mail', { name: 'other', ownerId: 'someone-else' });
    const other = async (path: string) =>
      (await fetch(env.api + path, { headers: { authorization: `Bearer ${key}` } })).status;
    expect(await other(`/v0/inboxes/${enc(inbox)}`)).toBe(404);
    expect(await other(`/v0/inboxes/${enc(inbox)}/messages`)).toBe(404);
    expect(await other(`/v0/webhooks/${webhookId}`)).toBe(404);
    const list = await fetch(env.api + '/v0/inboxes', { headers: { authorization: `Bearer ${key}` } });
    expect(((await list.json()) as { count: number }).count).toBe(0);
  });
});

describe('limits', () => {
  let env: MailTestEnv;
  afterAll(async () => env?.t.destroy());

  it('answers 429 with Retry-After past the request and send limits; replays are free', async () => {
    env = await startMail({ env: { HAMLET_RATE_MAIL_REQUESTS: '12/1m', HAMLET_RATE_MAIL_SENDS: '2/1d' } });
    const inbox = (await env.call('POST', '/v0/inboxes', { username: 'limited' })).body.inbox_id; // 1
    const send = (key: string) =>
      env.call('POST', `/v0/inboxes/${enc(inbox)}/messages`, { to: inbox, text: key }, { 'idempotency-key': key });
    expect((await send('one')).status).toBe(200); // 2
    expect((await send('one')).status).toBe(200); // 3: a replay, not a new send
    expect((await send('two')).status).toBe(200); // 4
    const third = await send('three'); // 5
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect(third.body.error.type).toBe('rate_limit_exceeded');
    for (let i = 6; i <= 12; i++) expect((await env.call('GET', '/v0/inboxes')).status).toBe(200);
    const over = await env.call('GET', '/v0/inboxes');
    expect(over.status).toBe(429);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.body.error.type).toBe('rate_limit_exceeded');
    expect(over.body.name).toBe('RateLimitError');
  });
});
