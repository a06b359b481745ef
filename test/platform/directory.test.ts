// Where a service's API is reached from code that calls it over HTTP (the workflow's Hamlet
// nodes): the operator's HAMLET_<SERVICE>_URL, else where it listens here, else where its
// settings say it listens (a `hamlet worker` serves nothing but reaches the API processes).
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { Directory, reachableUrl } from '../../src/platform/directory.js';

it('prefers the operator, then the running service, then its configured port', () => {
  const d = new Directory({ blog: 'https://blog.example.org' });
  d.expect('blog', 'http://127.0.0.1:4000');
  d.expect('home', 'http://127.0.0.1:8123');
  expect(d.url('blog')).toBe('https://blog.example.org');
  expect(d.url('home')).toBe('http://127.0.0.1:8123');
  d.listening('home', 'http://127.0.0.1:40123');
  expect(d.url('home')).toBe('http://127.0.0.1:40123');
  expect(d.url('mail')).toBeUndefined();
});

it('reads HAMLET_<SERVICE>_URL as a platform setting, without its trailing slash, and refuses a bad one', () => {
  expect(loadConfig({ HAMLET_BLOG_URL: 'https://blog.example.org/' }).serviceUrls).toEqual({
    blog: 'https://blog.example.org',
  });
  expect(() => loadConfig({ HAMLET_HOME_URL: 'not a url' })).toThrow(/HAMLET_HOME_URL/);
});

it('a wildcard listen address is reached over loopback; IPv6 literals get brackets', () => {
  expect(reachableUrl('0.0.0.0', 4000)).toBe('http://127.0.0.1:4000');
  expect(reachableUrl('::', 4000)).toBe('http://127.0.0.1:4000');
  expect(reachableUrl('::1', 4000)).toBe('http://[::1]:4000');
  expect(reachableUrl('10.0.0.5', 4000)).toBe('http://10.0.0.5:4000');
});
