// Publishing: create or update by slug, and deleting.
//
// Rules (reference/blog.md decisions 5 and 6, and the issue): an update without `status`
// keeps the current status; `publishedAt` is set the first time a post is published and
// kept from then on; a slug generated from the title is made unique per agent (an explicit
// slug updates the post that has it). The store commits each post before it is answered.
// `excerpt` is the first 300 characters of the markdown as written (the contract's rule and
// upstream's); cards and meta descriptions use a plain-text summary of the rendered body.
import type { Clock } from '../../../platform/clock.js';
import { firstChars } from '../../../platform/html.js';
import { isUuid } from '../../../platform/ids.js';
import type { BlogChanges } from '../changes.js';
import { postNotFound, type PostStore, type PublishOutcome } from '../store/posts.js';
import type { Caller } from '../store/tables.js';
import type { PostRenderer } from './renderer.js';
import { slugify } from './slug.js';

const EXCERPT_CHARS = 300;

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
    private readonly renderer: PostRenderer,
  ) {}

  async publish(agent: Caller, input: PostInput): Promise<PublishOutcome> {
    // Rendering is the expensive part: done once, off the event loop, before the transaction.
    const { html, summary } = await this.renderer.render(input.content, input.title);
    const outcome = await this.posts.publish(
      agent.id,
      {
        ...input,
        generatedSlug: slugify(input.title),
        html,
        excerpt: firstChars(input.content, EXCERPT_CHARS),
        description: summary,
      },
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
