// The blog's settings (BLOG_*), read with the platform's kit.
import type { SettingsKit } from '../../platform/settings.js';

export interface BlogSettings {
  port: number;
  /** Blogs live at <slug>.<domain>. */
  domain: string;
  /** Scheme used in the public blog and post URLs the API returns (the contract says https). */
  publicScheme: 'http' | 'https';
  /** Port appended to public blog URLs, for local use (e.g. 4000); none by default. */
  publicPort?: number;
  /** Where the API is reachable from outside, for links in e-mails; defaults to the listen address. */
  apiBaseUrl?: string;
  /** Sender of verification and key e-mails. */
  mailFrom: string;
}

export function readBlogSettings(kit: SettingsKit): BlogSettings {
  const domain = kit.hostname('BLOG_DOMAIN', 'blog.localhost', 'blog-domain');
  const publicPort = kit.raw('BLOG_PUBLIC_PORT') === undefined ? undefined : kit.count('BLOG_PUBLIC_PORT', 0, 1, 65535);
  return {
    port: kit.port('BLOG_PORT', 4000, 'blog-port'),
    domain,
    publicScheme: kit.oneOf('BLOG_PUBLIC_SCHEME', ['http', 'https'], 'https'),
    publicPort: publicPort || undefined,
    apiBaseUrl: kit.baseUrl('BLOG_API_URL'),
    mailFrom: kit.text('BLOG_MAIL_FROM', `Hamlet Blogs <no-reply@${domain}>`),
  };
}
