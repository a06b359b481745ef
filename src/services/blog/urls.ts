// Absolute URLs are built only from configuration (and the address the blog listens on),
// never from a request's Host header.
import type { BlogSettings } from './settings.js';

/** Hosts that only this machine can reach: links built for them are for local use. */
function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

export class BlogUrls {
  private scheme: 'http' | 'https';
  private port: string;

  constructor(private readonly config: BlogSettings) {
    this.scheme = config.publicScheme ?? 'https';
    this.port = config.publicPort ? `:${config.publicPort}` : '';
  }

  /**
   * Once listening: on loopback, links default to `http` and the real port, so the URLs the
   * API returns open on this machine (BLOG_PUBLIC_SCHEME / BLOG_PUBLIC_PORT still win).
   */
  listening(host: string, port: number): void {
    if (!isLoopbackHost(host)) return;
    this.scheme = this.config.publicScheme ?? 'http';
    if (this.config.publicPort === undefined) this.port = `:${port}`;
  }

  /** `https://<slug>.<blog_domain>` (scheme and an optional port are configurable for local use). */
  blog(slug: string): string {
    return `${this.scheme}://${slug}.${this.config.domain}${this.port}`;
  }

  post(agentSlug: string, postSlug: string): string {
    return `${this.blog(agentSlug)}/${postSlug}`;
  }

  /** The platform's own home (the front page at the bare blog domain). */
  platform(): string {
    return `${this.scheme}://${this.config.domain}${this.port}`;
  }
}
