// The outbound guard on every hop: internal addresses in any notation are refused whether
// they are the first URL or the target of a redirect (literal IPs, DNS answers, local names),
// redirects are followed the way fetch() follows them, and limited.
// A "public" redirector is simulated on 127.0.0.2 (see helpers/outbound-servers.ts).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { isInternalAddress, outboundFetch } from '../../src/platform/outbound.js';
import { startInternal, startRedirector, usePublicLoopbackPolicy } from '../helpers/outbound-servers.js';

describe('isInternalAddress', () => {
  test.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fe80::1%eth0',
    'fd00::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::FFFF:7F00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:0:7f00:1', // mapped, SIIT
    '::127.0.0.1',
    '::7f00:1',
    '::a00:1', // IPv4-compatible
    '64:ff9b::7f00:1',
    '64:ff9b::127.0.0.1',
    '64:ff9b::a9fe:a9fe',
    '64:ff9b:1::1', // NAT64
    '2002:7f00:1::',
    '2002:a9fe:a9fe::1',
    '2002:c0a8:101::', // 6to4
    '2001:0:4136:e378:8000:63bf:80ff:fffe', // Teredo, client 127.0.0.1 stored inverted
    'not an address',
    '',
  ])('%s is internal', (ip) => expect(isInternalAddress(ip)).toBe(true));

  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (ip) => expect(isInternalAddress(ip)).toBe(false));
});

describe('outboundFetch', () => {
  let internal: Awaited<ReturnType<typeof startInternal>>;
  let pub: Awaited<ReturnType<typeof startRedirector>>;
  let other: Awaited<ReturnType<typeof startRedirector>>;
  let restore: () => void;
  const guarded = { allowInternal: false, timeoutMs: 5_000 };

  beforeAll(async () => {
    restore = usePublicLoopbackPolicy();
    internal = await startInternal();
    pub = await startRedirector();
    other = await startRedirector(); // a second public origin (another port)
  });
  afterAll(async () => {
    restore?.();
    await Promise.all([internal?.close(), pub?.close(), other?.close()]);
  });

  /** Asserts the request is refused naming the operator's switch, and the internal service saw nothing. */
  async function expectRefused(url: string, init: Parameters<typeof outboundFetch>[1] = {}, opts = guarded) {
    const before = internal.hits();
    const err = await outboundFetch(url, init, opts).then(
      async (res) => new Error(`answered ${res.status}: ${await res.text()}`),
      (e: Error) => e,
    );
    expect(err.message).toMatch(/internal addresses are blocked; set HAMLET_ALLOW_INTERNAL_REQUESTS=1/);
    expect(internal.hits()).toBe(before);
  }

  const forms = () => {
    const p = internal.v4.port;
    const p6 = internal.v6.port;
    return {
      '127.0.0.1': `http://127.0.0.1:${p}/`,
      '[::1]': `http://[::1]:${p6}/`,
      '0.0.0.0': `http://0.0.0.0:${p}/`,
      '2130706433 (decimal)': `http://2130706433:${p}/`,
      '0x7f.1 (hex)': `http://0x7f.1:${p}/`,
      '017700000001 (octal)': `http://017700000001:${p}/`,
      '127.1 (short)': `http://127.1:${p}/`,
      '[::ffff:127.0.0.1] (mapped)': `http://[::ffff:127.0.0.1]:${p}/`,
      '[::127.0.0.1] (compatible)': `http://[::127.0.0.1]:${p}/`,
      localhost: `http://localhost:${p}/`,
      'api.localhost': `http://api.localhost:${p}/`,
      'a name resolving to 127.0.0.1': `http://rebind.test:${p}/`,
    };
  };

  test('the public redirector is reachable and its redirects to public places are followed', async () => {
    const res = await outboundFetch(pub.to(`${other.url}/landed`), {}, guarded);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ url: '/landed' });
    const named = await outboundFetch(`http://www.public.test:${pub.port}/named`, {}, guarded);
    expect(await named.json()).toMatchObject({ url: '/named' });
  });

  test('every internal form is refused as the first URL', async () => {
    for (const url of Object.values(forms())) await expectRefused(url);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    test(`a ${status} to every internal form is refused`, async () => {
      for (const [form, url] of Object.entries(forms())) {
        await expectRefused(pub.to(url, status), { method: 'POST', body: 'x' }).catch((e: Error) => {
          throw new Error(`${form}: ${e.message}`);
        });
      }
    });
  }

  test('a second redirect to an internal address is refused', async () => {
    for (const url of Object.values(forms())) await expectRefused(pub.to(other.to(url, 307), 302));
    // by name, then relative: /to on a name that resolves inward
    await expectRefused(pub.to(`http://rebind.test:${internal.v4.port}/to?url=%2F`));
  });

  test('redirects to addresses that embed an internal IPv4 (NAT64, 6to4, Teredo) or metadata are refused before connecting', async () => {
    for (const url of [
      'http://[64:ff9b::7f00:1]/',
      'http://[2002:7f00:1::]/',
      'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[fd00::1]/',
    ]) {
      await expectRefused(pub.to(url));
    }
  });

  test('HAMLET_ALLOW_INTERNAL_REQUESTS lets every hop through', async () => {
    const res = await outboundFetch(
      pub.to(`http://[::ffff:127.0.0.1]:${internal.v4.port}/in`),
      {},
      { allowInternal: true },
    );
    expect(await res.json()).toMatchObject({ secret: 'internal-only', url: '/in' });
  });

  test('a trusted origin may be internal, but its redirect to another origin is guarded', async () => {
    const trusted = { ...guarded, trustOrigin: true };
    const direct = await outboundFetch(`${internal.v4.url}/api`, {}, trusted);
    expect(await direct.json()).toMatchObject({ secret: 'internal-only' });
    const trustedRedirector = await startRedirector('127.0.0.1');
    try {
      const same = await outboundFetch(trustedRedirector.to('/moved'), {}, trusted);
      expect(await same.json()).toMatchObject({ url: '/moved' });
      await expectRefused(trustedRedirector.to(`${internal.v4.url}/`), {}, trusted);
      await expectRefused(trustedRedirector.to(`http://[::1]:${internal.v6.port}/`), {}, trusted);
    } finally {
      await trustedRedirector.close();
    }
  });

  test('redirects change the method as fetch() does and keep credentials on their origin', async () => {
    const post = {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', authorization: 'Bearer s3cret', cookie: 'sid=1' },
    };
    const see = async (url: string, init = post) =>
      (await (await outboundFetch(url, init, guarded)).json()) as Record<string, unknown>;
    expect(await see(pub.to('/echo', 302))).toMatchObject({
      method: 'GET',
      body: '',
      contentType: null,
      authorization: 'Bearer s3cret',
    });
    expect(await see(pub.to('/echo', 301))).toMatchObject({ method: 'GET', body: '' });
    expect(await see(pub.to('/echo', 303), { ...post, method: 'PUT' })).toMatchObject({ method: 'GET', body: '' });
    expect(await see(pub.to('/echo', 307))).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      contentType: 'application/json',
      authorization: 'Bearer s3cret',
      cookie: 'sid=1',
    });
    expect(await see(pub.to('/echo', 302), { ...post, method: 'PUT' })).toMatchObject({
      method: 'PUT',
      body: '{"a":1}',
    });
    expect(await see(pub.to(`${other.url}/echo`, 308))).toMatchObject({
      method: 'POST',
      body: '{"a":1}',
      authorization: null,
      cookie: null,
    });
  });

  test("a body on GET (fetch() refuses one; n8n's HTTP Request node sends it) is sent, through the same guard", async () => {
    const get = { method: 'GET', body: '{"a":1}', headers: { 'content-type': 'application/json' } };
    const res = await outboundFetch(pub.to('/echo', 307), get, guarded);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ method: 'GET', body: '{"a":1}', contentType: 'application/json' });
    for (const url of Object.values(forms())) {
      await expectRefused(url, get);
      await expectRefused(pub.to(url, 307), get);
    }
  });

  test('at most maxRedirects redirects (default 21) are followed; manual returns the redirect', async () => {
    const chain = (n: number) => {
      let url = `${other.url}/end`;
      for (let i = 0; i < n; i++) url = (i % 2 ? other : pub).to(url);
      return url;
    };
    expect((await outboundFetch(chain(21), {}, guarded)).status).toBe(200);
    await expect(outboundFetch(chain(22), {}, guarded)).rejects.toThrow(/Maximum number of redirects exceeded/);
    expect((await outboundFetch(chain(3), { maxRedirects: 3 }, guarded)).status).toBe(200);
    await expect(outboundFetch(chain(3), { maxRedirects: 2 }, guarded)).rejects.toThrow(
      /Maximum number of redirects exceeded/,
    );
    const before = internal.hits();
    const manual = await outboundFetch(pub.to(`${internal.v4.url}/`), { redirect: 'manual' }, guarded);
    expect(manual.status).toBe(302);
    expect(manual.headers.get('location')).toBe(`${internal.v4.url}/`);
    expect(internal.hits()).toBe(before);
  });

  test('a redirect to another scheme is refused', async () => {
    await expect(outboundFetch(pub.to('file:///etc/passwd'), {}, guarded)).rejects.toThrow(
      /unsupported URL scheme file:/,
    );
  });
});
