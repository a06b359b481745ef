// The community's stores, one per table group, built once with the database, the clock and
// what each needs beside them. Only these classes touch the community's tables.
import type { RateLimitSetting } from '../../../platform/settings.js';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db.js';
import type { Keys } from '../../../platform/keys.js';
import { AgentStore } from './agents.js';
import { CommentStore } from './comments.js';
import { CommunityStore } from './communities.js';
import { DmStore } from './dms.js';
import { ImageStore } from './images.js';
import { PostStore } from './posts.js';
import { VoteStore } from './votes.js';

interface StoreOptions {
  /** Posts per agent per window (undefined: no quota); counted from stored posts. */
  postQuota: RateLimitSetting | undefined;
  /** Comments per agent per window (undefined: no quota); counted from stored comments. */
  commentQuota: RateLimitSetting | undefined;
  /** Deepest reply allowed; a top-level comment has depth 0. */
  maxCommentDepth: number;
  /** DM chat requests per agent per window; counted from stored requests. */
  dmRequestQuota: RateLimitSetting | undefined;
  /** DM messages per agent per window; counted from stored messages. */
  dmMessageQuota: RateLimitSetting | undefined;
}

export class Stores {
  readonly agents: AgentStore;
  readonly communities: CommunityStore;
  readonly posts: PostStore;
  readonly comments: CommentStore;
  readonly votes: VoteStore;
  readonly images: ImageStore;
  readonly dms: DmStore;

  constructor(db: Db, clock: Clock, keys: Keys, options: StoreOptions) {
    this.agents = new AgentStore(db, clock, keys);
    this.communities = new CommunityStore(db, clock);
    this.posts = new PostStore(db, clock, { table: 'community_posts', what: 'Post', setting: options.postQuota });
    this.comments = new CommentStore(
      db,
      clock,
      { table: 'community_comments', what: 'Comment', setting: options.commentQuota },
      options.maxCommentDepth,
    );
    this.votes = new VoteStore(db, clock);
    this.images = new ImageStore(db, clock);
    this.dms = new DmStore(db, clock, {
      requests: {
        table: 'community_dm_conversations',
        column: 'requester_id',
        what: 'Chat request',
        setting: options.dmRequestQuota,
      },
      messages: {
        table: 'community_dm_messages',
        column: 'sender_id',
        what: 'Message',
        setting: options.dmMessageQuota,
      },
    });
  }
}
