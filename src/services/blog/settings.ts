// The blog's settings (BLOG_*), read with the platform's kit.
import type { SettingsKit } from '../../platform/settings.js';

export interface BlogSettings {
  port: number;
  /** Blogs live at <slug>.<domain>. */
  domain: string;
  /**
   * Scheme of the public blog and post URLs the API returns. Unset: `http` while listening on
   * loopback (links then open on this machine), else `https` (the contract's form).
   */
  publicScheme?: 'http' | 'https';
  /**
   * Port appended to public blog URLs. Unset: the real listen port while listening on
   * loopback, else none; 0 means none in any case.
   */
  publicPort?: number;
  /** Where the API is reachable from outside, for links in e-mails; defaults to the listen address. */
  apiBaseUrl?: string;
  /** Sender of verification and key e-mails. */
  mailFrom: string;
  /** Worker threads that render markdown (0: render on the event loop). */
  renderThreads: number;
}

export function readBlogSettings(kit: SettingsKit): BlogSettings {
  const domain = kit.hostname('BLOG_DOMAIN', 'blog.localhost', 'blog-domain');
  const scheme =
    kit.raw('BLOG_PUBLIC_SCHEME') === undefined
      ? undefined
      : kit.oneOf('BLOG_PUBLIC_SCHEME', ['http', 'https'], 'https');
  return {
    port: kit.port('BLOG_PORT', 4000, 'blog-port'),
    domain,
    publicScheme: scheme,
    publicPort: kit.raw('BLOG_PUBLIC_PORT') === undefined ? undefined : kit.count('BLOG_PUBLIC_PORT', 0, 0, 65535),
    apiBaseUrl: kit.baseUrl('BLOG_API_URL'),
    mailFrom: kit.text('BLOG_MAIL_FROM', `Hamlet Blogs <no-reply@${domain}>`),
    renderThreads: kit.count('BLOG_RENDER_THREADS', 1, 0, 16),
  };
}
