// Direct messages: Moltbook's request/approve flow, one conversation per pair, blocking,
// per-agent privacy (dm_policy), quotas, and authorization: no agent reads, answers or
// writes in a conversation it is not part of.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

let c: Community;
type Agent = { key: string; id: string; name: string };
let ann: Agent;
let ben: Agent;
let eve: Agent;

const request = (from: Agent, body: Record<string, unknown>) =>
  c.call('POST', '/api/v1/agents/dm/request', { key: from.key, body });

beforeAll(async () => {
  c = await startCommunity({
    env: { HAMLET_RATE_COMMUNITY_DM_REQUESTS: '3/1h', HAMLET_RATE_COMMUNITY_DM_MESSAGES: '1000/1m' },
  });
  ann = await c.register('dm_ann');
  ben = await c.register('dm_ben');
  eve = await c.register('dm_eve');
});
afterAll(async () => {
  await c.t.destroy();
});

describe('direct messages', () => {
  let id = '';

  it('a request waits for the recipient; nothing can be sent before approval', async () => {
    const r = await request(ann, { to: 'DM_BEN', message: 'Hello Ben, a question from my human.' });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ success: true, status: 'pending', to: { name: 'dm_ben' } });
    id = r.body.conversation_id;
    expectEnvelope(await request(ann, { to: 'dm_ben', message: 'Hello again, Ben, anyone there?' }), 409, 'CONFLICT');
    expectEnvelope(await request(ben, { to: 'dm_ann', message: 'I was about to ask you too.' }), 409, 'CONFLICT');
    expectEnvelope(
      await c.call('POST', `/api/v1/agents/dm/conversations/${id}/send`, {
        key: ann.key,
        body: { message: 'too early' },
      }),
      403,
      'FORBIDDEN',
    );
    // The requester cannot approve its own request.
    expectEnvelope(
      await c.call('POST', `/api/v1/agents/dm/requests/${id}/approve`, { key: ann.key, body: {} }),
      403,
      'FORBIDDEN',
    );
    expect((await c.call('GET', '/api/v1/agents/dm/conversations', { key: ann.key })).body.conversations.count).toBe(0);
    const check = (await c.call('GET', '/api/v1/agents/dm/check', { key: ben.key })).body;
    expect(check).toMatchObject({
      has_activity: true,
      summary: '1 pending request, 0 unread messages',
      requests: { count: 1 },
    });
  });

  it('no agent reads, answers or writes in a conversation it is not part of', async () => {
    for (const [method, path, body] of [
      ['GET', `/api/v1/agents/dm/conversations/${id}`, undefined],
      ['POST', `/api/v1/agents/dm/conversations/${id}/send`, { message: 'let me in' }],
      ['POST', `/api/v1/agents/dm/requests/${id}/approve`, {}],
      ['POST', `/api/v1/agents/dm/requests/${id}/reject`, { block: true }],
    ] as const) {
      const r = expectEnvelope(await c.call(method, path, { key: eve.key, body }), 404, 'NOT_FOUND');
      expect(r.error).toBe('Conversation not found');
    }
    expect((await c.call('GET', '/api/v1/agents/dm/requests', { key: eve.key })).body.requests).toEqual({
      count: 0,
      items: [],
    });
    expect((await c.call('GET', '/api/v1/agents/dm/check', { key: eve.key })).body).toMatchObject({
      has_activity: false,
      messages: { total_unread: 0, latest: [] },
    });
    expectEnvelope(await c.call('GET', '/api/v1/agents/dm/conversations/not-a-uuid', { key: eve.key }), 400);
    expectEnvelope(await c.call('GET', `/api/v1/agents/dm/conversations/${id}`), 401, 'UNAUTHORIZED');
  });

  it('once approved, both write; reading marks read; unread counts follow', async () => {
    expect((await c.call('POST', `/api/v1/agents/dm/requests/${id}/approve`, { key: ben.key })).body.action).toBe(
      'approved',
    );
    expect((await c.call('POST', `/api/v1/agents/dm/requests/${id}/approve`, { key: ben.key })).body.action).toBe(
      'already_approved',
    );
    const sent = await c.call('POST', `/api/v1/agents/dm/conversations/${id}/send`, {
      key: ben.key,
      body: { message: 'Sure, ask away.', needs_human_input: true },
    });
    expect(sent.status).toBe(201);
    expect(sent.body.sent).toMatchObject({
      content: 'Sure, ask away.',
      needs_human_input: true,
      from_you: true,
      sender: { name: 'dm_ben' },
    });
    const annInbox = (await c.call('GET', '/api/v1/agents/dm/conversations', { key: ann.key })).body;
    expect(annInbox).toMatchObject({ inbox: 'main', total_unread: 1, conversations: { count: 1 } });
    expect(annInbox.conversations.items[0]).toMatchObject({
      conversation_id: id,
      with_agent: { name: 'dm_ben' },
      unread_count: 1,
      you_initiated: true,
      status: 'approved',
    });
    const check = (await c.call('GET', '/api/v1/agents/dm/check', { key: ann.key })).body;
    expect(check.messages).toMatchObject({ total_unread: 1, conversations_with_unread: 1 });
    expect(check.messages.latest[0]).toMatchObject({
      content: 'Sure, ask away.',
      needs_human_input: true,
      from_you: false,
    });
    const read = (await c.call('GET', `/api/v1/agents/dm/conversations/${id}`, { key: ann.key })).body;
    expect(read.messages.map((m: any) => [m.sender.name, m.content])).toEqual([
      ['dm_ann', 'Hello Ben, a question from my human.'],
      ['dm_ben', 'Sure, ask away.'],
    ]);
    expect((await c.call('GET', '/api/v1/agents/dm/conversations', { key: ann.key })).body.total_unread).toBe(0);
    expectEnvelope(
      await c.call('POST', `/api/v1/agents/dm/conversations/${id}/send`, { key: ann.key, body: { message: '   ' } }),
      400,
    );
    expectEnvelope(
      await c.call('POST', `/api/v1/agents/dm/conversations/${id}/send`, {
        key: ann.key,
        body: { message: 'x'.repeat(5001) },
      }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('reject, block, and asking again', async () => {
    const first = (await request(eve, { to: 'dm_ann', message: 'Would you like to hear an offer?' })).body
      .conversation_id;
    expect(
      (await c.call('POST', `/api/v1/agents/dm/requests/${first}/reject`, { key: ann.key, body: {} })).body.action,
    ).toBe('rejected');
    // A rejected pair may ask again (the same conversation, pending once more); a blocked one may not.
    const second = (await request(eve, { to: 'dm_ann', message: 'Maybe now? It is a good offer.' })).body
      .conversation_id;
    expect(second).toBe(first);
    expect(
      (await c.call('POST', `/api/v1/agents/dm/requests/${first}/reject`, { key: ann.key, body: { block: true } })).body
        .action,
    ).toBe('blocked');
    const refused = expectEnvelope(
      await request(eve, { to: 'dm_ann', message: 'Last try, I promise you.' }),
      403,
      'FORBIDDEN',
    );
    expect(refused.error).toMatch(/does not accept chat requests from you/);
  });

  it('per-agent privacy: dm_policy open, following or closed', async () => {
    const zed = await c.register('dm_zed');
    expect(
      (await c.call('PATCH', '/api/v1/agents/me', { key: zed.key, body: { dm_policy: 'closed' } })).body.agent
        .dm_policy,
    ).toBe('closed');
    expectEnvelope(await request(ben, { to: 'dm_zed', message: 'Hello there, Zed, a quick one.' }), 403, 'FORBIDDEN');
    await c.call('PATCH', '/api/v1/agents/me', { key: zed.key, body: { dm_policy: 'following' } });
    expectEnvelope(await request(ben, { to: 'dm_zed', message: 'Hello there, Zed, a quick one.' }), 403, 'FORBIDDEN');
    await c.call('POST', '/api/v1/agents/dm_ben/follow', { key: zed.key });
    expect((await request(ben, { to: 'dm_zed', message: 'Hello there, Zed, a quick one.' })).status).toBe(201);
  });

  it('validates requests: one of to/to_owner, message length, unknown agents, oneself', async () => {
    expectEnvelope(await request(ann, { message: 'to nobody at all, really' }), 400, 'VALIDATION_ERROR');
    expectEnvelope(
      await request(ann, { to: 'dm_eve', to_owner: 'x', message: 'both of them, which one?' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(await request(ann, { to: 'dm_eve', message: 'short' }), 400, 'VALIDATION_ERROR');
    expectEnvelope(await request(ann, { to: 'nobody_by_that_name', message: 'anyone home at all?' }), 404, 'NOT_FOUND');
    expectEnvelope(await request(ann, { to: 'dm_ann', message: 'talking to myself again' }), 400);
    expectEnvelope(
      await request(ann, { to_owner: '@no_such_owner', message: 'to an owner nobody has' }),
      404,
      'NOT_FOUND',
    );
  });

  it('to_owner reaches the agent its owner claimed', async () => {
    const r = (await c.call('POST', '/api/v1/agents/register', { body: { name: 'dm_owned' } })).body;
    await fetch(r.agent.claim_url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ verification_code: r.agent.verification_code, owner: 'Owner_Jo' }).toString(),
    });
    const sent = await request(eve, { to_owner: '@owner_jo', message: 'Hi Jo, about your agent.' });
    expect(sent.status).toBe(201);
    expect(sent.body.to.name).toBe('dm_owned');
  });

  it('chat requests have a per-agent quota (429 with retry_after)', async () => {
    const quick = await c.register('dm_quick');
    const targets = await Promise.all(['dm_t1', 'dm_t2', 'dm_t3', 'dm_t4'].map((n) => c.register(n)));
    for (const t of targets.slice(0, 3))
      expect((await request(quick, { to: t.name, message: 'Hello, a new friend here.' })).status).toBe(201);
    const limited = expectEnvelope(
      await request(quick, { to: targets[3].name, message: 'Hello, a new friend here.' }),
      429,
      'RATE_LIMITED',
    );
    expect(limited.retry_after).toBeGreaterThan(0);
  });
});
