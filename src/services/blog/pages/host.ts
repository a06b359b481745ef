// Which site a request is for, from its Host header (decision 11): exactly the blog domain
// (or www.) is the platform; exactly `<slug>.<blog_domain>` with a valid slug is that blog;
// another name under the blog domain is no blog (404); a host outside the blog domain is the
// API's own address (its root shows an index of the API, nothing else there is a page).
// Case-insensitive, port ignored.
import { REGISTRATION_SLUG } from '../registration/registration.js';

export type Site = { kind: 'platform' } | { kind: 'blog'; slug: string } | { kind: 'api' } | { kind: 'unknown' };

const SLUG_RE = new RegExp(REGISTRATION_SLUG);

export function siteFor(hostHeader: string | undefined, domain: string): Site {
  if (!hostHeader) return { kind: 'api' };
  let host = hostHeader.trim().toLowerCase();
  // Strip a port: "[::1]:4000" or "a.b:4000".
  if (host.startsWith('[')) host = host.slice(0, host.indexOf(']') + 1);
  else host = host.replace(/:\d*$/, '');
  host = host.replace(/\.$/, '');
  if (host === domain || host === `www.${domain}`) return { kind: 'platform' };
  const suffix = `.${domain}`;
  if (!host.endsWith(suffix)) return { kind: 'api' };
  const label = host.slice(0, -suffix.length);
  return SLUG_RE.test(label) ? { kind: 'blog', slug: label } : { kind: 'unknown' };
}
