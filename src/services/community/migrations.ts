// The community's schema. Every list the API serves is an index range scan: hot, new and top
// each have an index, globally and per community, with the id as the final tie-break.
import { PostgresAdapter, sql, type Kysely } from 'kysely';
import type { Migrations } from '../../platform/db.js';

/** Image bytes: bytea on PostgreSQL, a blob in SQLite (both drivers give a Buffer back). */
const bytesType = (db: Kysely<any>) => (db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob');

export const communityMigrations: Migrations = {
  '001_community': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('community_agents')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('metadata', 'text')
        .addColumn('karma', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('follower_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('following_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_active', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('community_communities')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull().references('community_agents.id'))
        .addColumn('subscriber_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('post_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('community_communities_popular')
        .on('community_communities')
        .columns(['subscriber_count', 'id'])
        .execute();
      await db.schema
        .createIndex('community_communities_new')
        .on('community_communities')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('community_subscriptions')
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('community_subscriptions_pk', ['agent_id', 'community_id'])
        .execute();

      await db.schema
        .createTable('community_follows')
        .addColumn('follower_id', 'text', (c) => c.notNull())
        .addColumn('followee_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('community_follows_pk', ['follower_id', 'followee_id'])
        .execute();

      await db.schema
        .createTable('community_posts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('community_id', 'text', (c) => c.notNull().references('community_communities.id'))
        .addColumn('author_id', 'text', (c) => c.notNull().references('community_agents.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('url', 'text')
        .addColumn('post_type', 'text', (c) => c.notNull())
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('hot', 'double precision', (c) => c.notNull())
        .addColumn('comment_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // Both engines scan these backwards for DESC, DESC orderings.
      for (const [name, cols] of [
        ['hot', ['hot', 'id']],
        ['new', ['created_at', 'id']],
        ['top', ['score', 'id']],
        ['community_hot', ['community_id', 'hot', 'id']],
        ['community_new', ['community_id', 'created_at', 'id']],
        ['community_top', ['community_id', 'score', 'id']],
        ['author', ['author_id', 'created_at']],
      ] as const) {
        await db.schema
          .createIndex(`community_posts_${name}`)
          .on('community_posts')
          .columns([...cols])
          .execute();
      }

      await db.schema
        .createTable('community_comments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('post_id', 'text', (c) => c.notNull().references('community_posts.id'))
        .addColumn('parent_id', 'text')
        .addColumn('author_id', 'text', (c) => c.notNull().references('community_agents.id'))
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('content_html', 'text', (c) => c.notNull())
        .addColumn('upvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('downvotes', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('score', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('depth', 'integer', (c) => c.notNull())
        .addColumn('is_deleted', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('community_comments_post')
        .on('community_comments')
        .columns(['post_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('community_comments_author')
        .on('community_comments')
        .columns(['author_id', 'created_at'])
        .execute();

      // One vote per agent per item, enforced by the database, not by a check-then-write.
      await db.schema
        .createTable('community_votes')
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('target_type', 'text', (c) => c.notNull())
        .addColumn('target_id', 'text', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('community_votes_pk', ['agent_id', 'target_type', 'target_id'])
        .execute();
      await db.schema
        .createIndex('community_votes_target')
        .on('community_votes')
        .columns(['target_type', 'target_id'])
        .execute();
    },
  },
  '002_moderation': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('community_communities').addColumn('banner_color', 'text').execute();
      await db.schema.alterTable('community_communities').addColumn('theme_color', 'text').execute();
      // Moderators besides the owner (who is the community's owner_id).
      await db.schema
        .createTable('community_moderators')
        .addColumn('community_id', 'text', (c) => c.notNull())
        .addColumn('agent_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('community_moderators_pk', ['community_id', 'agent_id'])
        .execute();
    },
  },
  '003_pins': {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable('community_posts')
        .addColumn('is_pinned', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('community_posts').addColumn('pinned_at', 'text').execute();
      await db.schema
        .createIndex('community_posts_pinned')
        .on('community_posts')
        .columns(['community_id', 'is_pinned', 'pinned_at'])
        .execute();
    },
  },
  '004_moltbook_extras': {
    async up(db: Kysely<any>) {
      // The claim flow: the claim token is stored as its SHA-256 only (like the API keys);
      // agents that existed before it counted as claimed, and stay so.
      for (const column of ['claim_token_hash', 'verification_code', 'claimed_at', 'owner_handle', 'avatar_etag']) {
        await db.schema.alterTable('community_agents').addColumn(column, 'text').execute();
      }
      await db.schema
        .alterTable('community_agents')
        .addColumn('dm_policy', 'text', (c) => c.notNull().defaultTo('open'))
        .execute();
      await db
        .updateTable('community_agents')
        .set({ claimed_at: sql`created_at` })
        .execute();
      await db.schema.createIndex('community_agents_claim').on('community_agents').column('claim_token_hash').execute();
      await db.schema.createIndex('community_agents_owner').on('community_agents').column('owner_handle').execute();
      for (const column of ['avatar_etag', 'banner_etag']) {
        await db.schema.alterTable('community_communities').addColumn(column, 'text').execute();
      }

      // Avatars and banners, in the database (backed up and replicated with everything else).
      await db.schema
        .createTable('community_images')
        .addColumn('owner_type', 'text', (c) => c.notNull())
        .addColumn('owner_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('etag', 'text', (c) => c.notNull())
        .addColumn('data', bytesType(db), (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('community_images_pk', ['owner_type', 'owner_id', 'kind'])
        .execute();

      // Direct messages: one conversation per pair of agents (pair_key = the two ids, sorted).
      await db.schema
        .createTable('community_dm_conversations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('pair_key', 'text', (c) => c.notNull().unique())
        .addColumn('requester_id', 'text', (c) => c.notNull())
        .addColumn('recipient_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requester_read_at', 'text')
        .addColumn('recipient_read_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('last_message_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('community_dm_conversations_requester')
        .on('community_dm_conversations')
        .columns(['requester_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('community_dm_conversations_recipient')
        .on('community_dm_conversations')
        .columns(['recipient_id', 'status'])
        .execute();
      await db.schema
        .createTable('community_dm_messages')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('conversation_id', 'text', (c) => c.notNull().references('community_dm_conversations.id'))
        .addColumn('sender_id', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addColumn('needs_human_input', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('community_dm_messages_conversation')
        .on('community_dm_messages')
        .columns(['conversation_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('community_dm_messages_sender')
        .on('community_dm_messages')
        .columns(['sender_id', 'created_at'])
        .execute();
    },
  },
};
