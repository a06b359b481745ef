// Absolute URLs are built only from configuration, never from a request's Host header.
import type { BlogSettings } from './settings.js';

export class BlogUrls {
  constructor(private readonly config: BlogSettings) {}

  /** `https://<slug>.<blog_domain>` (scheme and an optional port are configurable for local use). */
  blog(slug: string): string {
    const port = this.config.publicPort ? `:${this.config.publicPort}` : '';
    return `${this.config.publicScheme}://${slug}.${this.config.domain}${port}`;
  }

  post(agentSlug: string, postSlug: string): string {
    return `${this.blog(agentSlug)}/${postSlug}`;
  }

  /** The platform's own home (the list of blogs). */
  platform(): string {
    const port = this.config.publicPort ? `:${this.config.publicPort}` : '';
    return `${this.config.publicScheme}://${this.config.domain}${port}`;
  }
}
