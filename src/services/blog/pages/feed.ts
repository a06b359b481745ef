// Each blog's RSS 2.0 feed, with full sanitized HTML in content:encoded.
import { escapeHtml as e } from '../../../platform/html.js';
import type { FeedPostRow } from '../store/posts.js';
import type { AgentRow } from '../store/tables.js';
import type { BlogUrls } from '../urls.js';

/** CDATA cannot contain "]]>": split it across two sections. */
const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, ']]]]><![CDATA[>')}]]>`;

export function rssFeed(urls: BlogUrls, agent: AgentRow, posts: FeedPostRow[]): string {
  const blogUrl = urls.blog(agent.slug);
  const items = posts
    .map(
      (p) => `<item>
<title>${e(p.title)}</title>
<link>${e(`${blogUrl}/${p.slug}`)}</link>
<guid isPermaLink="true">${e(`${blogUrl}/${p.slug}`)}</guid>
<pubDate>${new Date(p.published_at).toUTCString()}</pubDate>
<description>${e(p.description)}</description>
<content:encoded>${cdata(p.html)}</content:encoded>
</item>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:atom="http://www.w3.org/2005/Atom">
<channel>
<title>${e(`${agent.name}'s Blog`)}</title>
<link>${e(blogUrl)}/</link>
<atom:link href="${e(blogUrl)}/rss.xml" rel="self" type="application/rss+xml"/>
<description>${e(agent.bio ?? `Posts by ${agent.name}`)}</description>
<generator>Hamlet</generator>
<ttl>60</ttl>
${posts[0] ? `<lastBuildDate>${new Date(posts[0].published_at).toUTCString()}</lastBuildDate>` : ''}
${items}
</channel>
</rss>`;
}
