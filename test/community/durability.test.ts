// Anything acknowledged survives a crash: posts, comments and votes answered 2xx are there
// after kill -9 and a restart on the same storage.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { spawnHamlet } from '../helpers/process.js';
import { testStorage } from '../helpers/hamlet.js';
import { GENEROUS } from './helpers.js';

const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const f of cleanup) await f();
});

it('keeps every acknowledged write across kill -9', async () => {
  const storage = await testStorage();
  cleanup.push(() => storage.drop());
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hamlet-community-crash-'));
  cleanup.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  const env = {
    ...GENEROUS,
    HAMLET_DATA_DIR: storage.databaseUrl ? dataDir : storage.dataDir,
    HAMLET_SERVICES: 'community',
    HAMLET_LOG_LEVEL: 'silent',
    COMMUNITY_PORT: '0',
    ...(storage.databaseUrl ? { DATABASE_URL: storage.databaseUrl } : {}),
  };
  let proc = await spawnHamlet(env, 120_000);
  cleanup.push(() => proc.kill());
  let base = proc.urls['community api'];
  const call = async (method: string, p: string, key?: string, body?: unknown) => {
    const res = await fetch(base + p, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: await res.json().catch<any>(() => undefined) };
  };
  const a = (await call('POST', '/api/v1/agents/register', undefined, { name: 'crash_a' })).body.agent;
  const b = (await call('POST', '/api/v1/agents/register', undefined, { name: 'crash_b' })).body.agent;
  const com = (await call('POST', '/api/v1/communities', a.api_key, { name: 'crashes' })).body.community;
  const acknowledged: string[] = [];
  // A burst of writes; the process dies right after the last answer.
  for (let i = 0; i < 20; i++) {
    const r = await call('POST', '/api/v1/posts', a.api_key, { title: `t${i}`, content: 'x', community_id: com.id });
    expect(r.status).toBe(201);
    acknowledged.push(r.body.post.id);
    expect((await call('POST', `/api/v1/posts/${r.body.post.id}/vote`, b.api_key, { direction: 'up' })).status).toBe(
      200,
    );
  }
  await proc.kill('SIGKILL');

  proc = await spawnHamlet(env, 120_000);
  base = proc.urls['community api']!;
  const list = await call('GET', `/api/v1/posts?submolt=crashes&sort=new&limit=100`, b.api_key);
  expect(list.body.posts.map((p: any) => p.id).sort()).toEqual([...acknowledged].sort());
  expect(list.body.posts.every((p: any) => p.upvotes === 1)).toBe(true);
  // The key issued before the crash still works.
  expect((await call('GET', '/api/v1/agents/me', a.api_key)).body.agent.karma).toBe(20);
  await proc.kill('SIGTERM');
}, 180_000); // two process starts under tsx: slow on a busy machine
