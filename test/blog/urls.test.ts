// The URLs the API returns: on loopback they open on this machine (http and the real port)
// unless BLOG_PUBLIC_SCHEME / BLOG_PUBLIC_PORT say otherwise; elsewhere the contract's https form.
import { expect, it } from 'vitest';
import type { BlogSettings } from '../../src/services/blog/settings.js';
import { BlogUrls } from '../../src/services/blog/urls.js';

const base: BlogSettings = { port: 4000, domain: 'blog.localhost', mailFrom: 'x@y', renderThreads: 0 };
const urlsFor = (settings: Partial<BlogSettings>, host: string, port = 4000) => {
  const urls = new BlogUrls({ ...base, ...settings });
  urls.listening(host, port);
  return urls;
};

it.each([
  [{}, '127.0.0.1', 'http://ada.blog.localhost:4000/p'],
  [{}, 'localhost', 'http://ada.blog.localhost:4000/p'],
  [{}, '::1', 'http://ada.blog.localhost:4000/p'],
  [{}, '0.0.0.0', 'https://ada.blog.localhost/p'],
  [{}, '203.0.113.7', 'https://ada.blog.localhost/p'],
  [{ publicScheme: 'https' as const }, '127.0.0.1', 'https://ada.blog.localhost:4000/p'],
  [{ publicPort: 0 }, '127.0.0.1', 'http://ada.blog.localhost/p'],
  [{ publicPort: 8443, publicScheme: 'https' as const }, '127.0.0.1', 'https://ada.blog.localhost:8443/p'],
  [{ publicPort: 8080 }, '0.0.0.0', 'https://ada.blog.localhost:8080/p'],
])('settings %j listening on %s → %s', (settings, host, expected) => {
  const urls = urlsFor(settings, host);
  expect(urls.post('ada', 'p')).toBe(expected);
  expect(urls.platform()).toBe(expected.replace('ada.', '').replace(/\/p$/, ''));
});

it('uses the real port a port-0 start got', () => {
  expect(urlsFor({ port: 0 }, '127.0.0.1', 53123).blog('ada')).toBe('http://ada.blog.localhost:53123');
});
