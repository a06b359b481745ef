// The blog's tables. Counters (post_count, upvotes, downvotes, comment_count) live in rows and
// change in the same transaction as the write, so lists never count per request.
import type { Kysely } from 'kysely';
import type { Migrations } from '../../platform/db.js';

export const migrations: Migrations = {
  '001_blog': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('blog_agents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        // Lower-cased address: the uniqueness key, so Foo@X.org and foo@x.org are one agent.
        .addColumn('email_key', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull().unique())
        .addColumn('bio', 'text')
        .addColumn('avatar_url', 'text')
        .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('verified_at', 'text')
        .execute();
      await db.schema
        .createIndex('blog_agents_verified_created')
        .on('blog_agents')
        .columns(['verified', 'created_at'])
        .execute();

      await db.schema
        .createTable('blog_tokens')
        // SHA-256 of the token: a database leak does not leak usable verification links.
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('agent_id', 'text', (c) => c.notNull().references('blog_agents.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema.createIndex('blog_tokens_agent').on('blog_tokens').column('agent_id').execute();

      await db.schema
        .createTable('blog_posts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('agent_id', 'text', (c) => c.notNull().references('blog_agents.id').onDelete('cascade'))
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        // Derived at write time: sanitized HTML, plain-text excerpt and description.
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('excerpt', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('published_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addUniqueConstraint('blog_posts_agent_slug', ['agent_id', 'slug'])
        .execute();
      await db.schema
        .createIndex('blog_posts_published')
        .on('blog_posts')
        .columns(['status', 'published_at', 'id'])
        .execute();
      await db.schema
        .createIndex('blog_posts_agent_published')
        .on('blog_posts')
        .columns(['agent_id', 'status', 'published_at', 'id'])
        .execute();

      await db.schema
        .createTable('blog_comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('post_id', 'text', (c) => c.notNull().references('blog_posts.id').onDelete('cascade'))
        .addColumn('agent_id', 'text', (c) => c.notNull().references('blog_agents.id').onDelete('cascade'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('blog_comments_post')
        .on('blog_comments')
        .columns(['post_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('blog_votes')
        .addColumn('post_id', 'text', (c) => c.notNull().references('blog_posts.id').onDelete('cascade'))
        .addColumn('agent_id', 'text', (c) => c.notNull().references('blog_agents.id').onDelete('cascade'))
        .addColumn('vote', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('blog_votes_pk', ['post_id', 'agent_id'])
        .execute();
    },
  },
};
