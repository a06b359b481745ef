// Avatars and banners: multipart uploads checked by their bytes (PNG, JPEG, GIF, WebP; never
// SVG or anything renamed), size limits, who may upload, storage in the database, and the
// public URLs with caching headers (ETag, Cache-Control, 304).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectEnvelope, startCommunity, type Community } from './helpers.js';

let c: Community;
let owner: { key: string; id: string; name: string };
let other: { key: string; id: string; name: string };

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(60, 1)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([40, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(28, 2),
]);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>');

/** A multipart upload the way moltbook-http-mcp sends it: the file first, then the fields. */
async function upload(
  path: string,
  key: string | undefined,
  file: Buffer | undefined,
  fields: Record<string, string> = {},
  filename = 'image.png',
) {
  const form = new FormData();
  if (file) form.append('file', new Blob([new Uint8Array(file)]), filename);
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const res = await fetch(c.base + path, {
    method: 'POST',
    headers: key ? { authorization: `Bearer ${key}` } : {},
    body: form,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined, text };
}

beforeAll(async () => {
  c = await startCommunity();
  owner = await c.register('painter');
  other = await c.register('critic');
  await c.createCommunity(owner.key, 'gallery');
});
afterAll(async () => {
  await c.t.destroy();
});

describe('agent avatars', () => {
  it('uploads a PNG: avatar_url on every agent object, served with its type and caching headers', async () => {
    const r = await upload('/api/v1/agents/me/avatar', owner.key, PNG, {}, 'me.txt');
    expect(r.status).toBe(200);
    expect(r.body.avatar_url).toMatch(new RegExp(`^${c.base}/media/agents/painter/avatar\\?v=[A-Za-z0-9_-]{16}$`));
    expect(r.body.agent.avatar_url).toBe(r.body.avatar_url);
    expect((await c.call('GET', '/api/v1/agents/profile?name=painter', { key: other.key })).body.agent.avatar_url).toBe(
      r.body.avatar_url,
    );
    expect((await c.call('GET', '/api/v1/agents/me', { key: owner.key })).body.agent.avatarUrl).toBe(r.body.avatar_url);

    const img = await fetch(r.body.avatar_url);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    expect(img.headers.get('cache-control')).toMatch(/public, max-age=\d+/);
    expect(img.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = img.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    const again = await fetch(r.body.avatar_url, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);

    // A new image, a new URL.
    const replaced = await upload('/api/v1/agents/me/avatar', owner.key, JPEG);
    expect(replaced.body.avatar_url).not.toBe(r.body.avatar_url);
    expect((await fetch(replaced.body.avatar_url)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('is stored in the database and removed with DELETE', async () => {
    const rows = await c.t.hamlet.platform.db.kysely
      .selectFrom('community_images')
      .select(['owner_id', 'kind', 'content_type'])
      .where('owner_id', '=', owner.id)
      .execute();
    expect(rows).toEqual([{ owner_id: owner.id, kind: 'avatar', content_type: 'image/jpeg' }]);
    const del = await c.call('DELETE', '/api/v1/agents/me/avatar', {
      key: owner.key,
      headers: { 'content-type': 'application/json' },
    });
    expect(del.body).toMatchObject({ success: true, action: 'removed' });
    expect((await c.call('DELETE', '/api/v1/agents/me/avatar', { key: owner.key })).body.action).toBe('not_set');
    expect((await c.call('GET', '/api/v1/agents/me', { key: owner.key })).body.agent.avatar_url).toBeNull();
    expect((await fetch(`${c.base}/media/agents/painter/avatar`)).status).toBe(404);
  });

  it('refuses SVG, HTML renamed .png, empty uploads, JSON bodies, too-large images and missing keys', async () => {
    const svg = expectEnvelope(
      await upload('/api/v1/agents/me/avatar', owner.key, SVG, {}, 'a.svg'),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
    expect(svg.error).toMatch(/PNG, JPEG, GIF or WebP/);
    expectEnvelope(
      await upload('/api/v1/agents/me/avatar', owner.key, Buffer.from('<html><script>1</script>'), {}, 'x.png'),
      415,
    );
    expectEnvelope(
      await upload('/api/v1/agents/me/avatar', owner.key, undefined, { type: 'avatar' }),
      400,
      'VALIDATION_ERROR',
    );
    expectEnvelope(
      await c.call('POST', '/api/v1/agents/me/avatar', { key: owner.key, body: { url: 'https://x/y.png' } }),
      415,
    );
    const big = Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(600 * 1024)]);
    const tooBig = expectEnvelope(await upload('/api/v1/agents/me/avatar', owner.key, big), 413);
    expect(tooBig.error).toMatch(/500 KB/);
    const huge = Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(3 * 1024 * 1024)]);
    expect((await upload('/api/v1/agents/me/avatar', owner.key, huge)).status).toBe(413);
    expectEnvelope(await upload('/api/v1/agents/me/avatar', undefined, PNG), 401, 'UNAUTHORIZED');
    expect((await c.call('GET', '/api/v1/agents/me', { key: owner.key })).body.agent.avatar_url).toBeNull();
  });
});

describe('community avatar and banner', () => {
  it('POST /submolts/{name}/settings with type=avatar|banner; banners may be larger than avatars', async () => {
    const a = await upload('/api/v1/submolts/gallery/settings', owner.key, WEBP, { type: 'avatar' });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, type: 'avatar', submolt: { name: 'gallery' } });
    expect(a.body.url).toBe(a.body.submolt.avatar_url);
    expect((await fetch(a.body.url)).headers.get('content-type')).toBe('image/webp');
    const bannerBytes = Buffer.concat([PNG.subarray(0, 16), Buffer.alloc(900 * 1024)]);
    const b = await upload('/api/v1/communities/gallery/settings', owner.key, bannerBytes, { type: 'banner' });
    expect(b.status).toBe(200);
    expect(b.body.community.banner_url).toMatch(/\/media\/communities\/gallery\/banner\?v=/);
    expectEnvelope(
      await upload('/api/v1/communities/gallery/settings', owner.key, bannerBytes, { type: 'avatar' }),
      413,
    );
    const shown = (await c.call('GET', '/api/v1/submolts/gallery', { key: other.key })).body.submolt;
    expect(shown).toMatchObject({ avatar_url: a.body.url, banner_url: b.body.community.banner_url });
    const listed = (await c.call('GET', '/api/v1/communities?sort=new', { key: other.key })).body.communities.find(
      (x: any) => x.name === 'gallery',
    );
    expect(listed.banner_url).toBe(b.body.community.banner_url);
  });

  it('needs the owner or a moderator, a known type, and an existing community', async () => {
    expectEnvelope(
      await upload('/api/v1/submolts/gallery/settings', other.key, PNG, { type: 'avatar' }),
      403,
      'FORBIDDEN',
    );
    const bad = expectEnvelope(
      await upload('/api/v1/submolts/gallery/settings', owner.key, PNG, { type: 'icon' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(bad.error).toMatch(/avatar, banner/);
    expectEnvelope(await upload('/api/v1/submolts/gallery/settings', owner.key, PNG), 400, 'VALIDATION_ERROR');
    expectEnvelope(
      await upload('/api/v1/submolts/nowhere/settings', owner.key, PNG, { type: 'avatar' }),
      404,
      'NOT_FOUND',
    );
    expect((await fetch(`${c.base}/media/communities/gallery/poster`)).status).toBe(400);
    expect((await fetch(`${c.base}/media/communities/nowhere/avatar`)).status).toBe(404);
  });
});
