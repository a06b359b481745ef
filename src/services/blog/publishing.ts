// Publishing: create or update by slug, in one transaction per call.
//
// Rules (reference/blog.md decisions 5 and 6, and the issue): an update without `status`
// keeps the current status; `publishedAt` is set the first time a post is published and
// kept from then on; a slug generated from the title is made unique per agent (an explicit
// slug updates the post that has it). The agent's published-post counter changes in the
// same transaction, so lists never count.
import { isUniqueViolation } from '../../platform/db.js';
import { forbidden, notFound } from '../../platform/errors.js';
import { firstChars, renderMarkdown, textOfSafeHtml } from '../../platform/html.js';
import { isUuid, uuid } from '../../platform/ids.js';
import type { BlogContext } from './context.js';
import type { PublishBody } from './schemas.js';
import type { Caller, BlogTrx, PostRow } from './store.js';

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

export interface PublishOutcome {
  created: boolean;
  post: PostRow;
}

export class Publishing {
  constructor(private readonly ctx: BlogContext) {}

  async publish(agent: Caller, input: PublishBody): Promise<PublishOutcome> {
    // Rendering is the expensive part: do it once, outside the transaction.
    const html = renderMarkdown(input.content);
    const text = textOfSafeHtml(html);
    const derived = { html, excerpt: firstChars(text, 300), description: firstChars(text, 160) };
    for (let attempt = 0; ; attempt++) {
      try {
        const outcome = await this.ctx.store.transaction((trx) => this.upsert(trx, agent, input, derived));
        await this.ctx.changed();
        return outcome;
      } catch (err) {
        // A concurrent publish created the same slug first: run again, now as an update
        // (or, for a generated slug, with the next free suffix).
        if (isUniqueViolation(err) && attempt < 3) continue;
        throw err;
      }
    }
  }

  private async upsert(trx: BlogTrx, agent: Caller, input: PublishBody, derived: { html: string; excerpt: string; description: string }): Promise<PublishOutcome> {
    const now = this.ctx.platform.clock.now().toISOString();
    const slug = input.slug ?? (await this.freeSlug(trx, agent.id, slugify(input.title)));
    const existing = input.slug
      ? await trx.selectFrom('blog_posts').selectAll().where('agent_id', '=', agent.id).where('slug', '=', slug).executeTakeFirst()
      : undefined;

    if (!existing) {
      const status = input.status ?? 'draft';
      const post: PostRow = {
        id: uuid(),
        agent_id: agent.id,
        slug,
        title: input.title,
        content: input.content,
        ...derived,
        status,
        published_at: status === 'published' ? now : null,
        created_at: now,
        updated_at: now,
        upvotes: 0,
        downvotes: 0,
        comment_count: 0,
      };
      await trx.insertInto('blog_posts').values(post).execute();
      if (status === 'published') await this.bumpCount(trx, agent.id, 1);
      return { created: true, post };
    }

    const status = input.status ?? existing.status;
    const publishedAt = existing.published_at ?? (status === 'published' ? now : null);
    const post: PostRow = { ...existing, title: input.title, content: input.content, ...derived, status, published_at: publishedAt, updated_at: now };
    await trx
      .updateTable('blog_posts')
      .set({ title: post.title, content: post.content, ...derived, status, published_at: publishedAt, updated_at: now })
      .where('id', '=', existing.id)
      .execute();
    if (existing.status !== status) await this.bumpCount(trx, agent.id, status === 'published' ? 1 : -1);
    return { created: false, post };
  }

  /** `base`, or `base-2`, `base-3`… whichever this agent does not use yet. */
  private async freeSlug(trx: BlogTrx, agentId: string, base: string): Promise<string> {
    const rows = await trx
      .selectFrom('blog_posts')
      .select('slug')
      .where('agent_id', '=', agentId)
      .where((eb) => eb.or([eb('slug', '=', base), eb('slug', 'like', `${base}-%`)]))
      .execute();
    const taken = new Set(rows.map((r) => r.slug));
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  private async bumpCount(trx: BlogTrx, agentId: string, delta: number) {
    await trx
      .updateTable('blog_agents')
      .set((eb) => ({ post_count: eb('post_count', '+', delta) }))
      .where('id', '=', agentId)
      .execute();
  }

  /** Deletes one of the caller's posts (upstream's DELETE /api/posts/{id}). */
  async remove(agent: Caller, postId: string): Promise<void> {
    if (!isUuid(postId)) throw notFound('Post not found', 'post_not_found');
    await this.ctx.store.transaction(async (trx) => {
      const post = await trx.selectFrom('blog_posts').select(['id', 'agent_id', 'status']).where('id', '=', postId).executeTakeFirst();
      if (!post) throw notFound('Post not found', 'post_not_found');
      if (post.agent_id !== agent.id) throw forbidden('Forbidden. You can only delete your own posts.');
      await trx.deleteFrom('blog_posts').where('id', '=', postId).execute();
      if (post.status === 'published') await this.bumpCount(trx, agent.id, -1);
    });
    await this.ctx.changed();
  }
}
