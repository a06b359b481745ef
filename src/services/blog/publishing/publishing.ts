// Publishing: create or update by slug, and deleting.
//
// Rules (reference/blog.md decisions 5 and 6, and the issue): an update without `status`
// keeps the current status; `publishedAt` is set the first time a post is published and
// kept from then on; a slug generated from the title is made unique per agent (an explicit
// slug updates the post that has it). The store applies them in one transaction per call.
import type { Clock } from '../../../platform/clock.js';
import { firstChars, renderMarkdown, textOfSafeHtml } from '../../../platform/html.js';
import { isUuid } from '../../../platform/ids.js';
import type { BlogChanges } from '../changes.js';
import { postNotFound, type PostStore, type PublishOutcome } from '../store/posts.js';
import type { Caller } from '../store/tables.js';

const MAX_SLUG = 100;

/** A URL slug from a title: accents folded, anything else non-alphanumeric becomes a hyphen. */
function slugify(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/g, '');
  // Titles with no Latin letters or digits (e.g. all CJK) still need a valid slug.
  return s.length >= 2 ? s : s.length === 1 ? `${s}-post` : 'post';
}

export interface PostInput {
  title: string;
  content: string;
  slug?: string;
  status?: 'draft' | 'published';
}

export class Publishing {
  constructor(
    private readonly posts: PostStore,
    private readonly clock: Clock,
    private readonly changes: BlogChanges,
  ) {}

  async publish(agent: Caller, input: PostInput): Promise<PublishOutcome> {
    // Rendering is the expensive part: done once, before the transaction.
    const html = renderMarkdown(input.content);
    const text = textOfSafeHtml(html);
    const outcome = await this.posts.publish(
      agent.id,
      { ...input, generatedSlug: slugify(input.title), html, excerpt: firstChars(text, 300), description: firstChars(text, 160) },
      this.clock.now().toISOString(),
    );
    await this.changes.announce();
    return outcome;
  }

  /** Deletes one of the caller's posts (upstream's DELETE /api/posts/{id}). */
  async remove(agent: Caller, postId: string): Promise<void> {
    if (!isUuid(postId)) throw postNotFound();
    await this.posts.remove(agent.id, postId);
    await this.changes.announce();
  }
}
