// The community's stores, one per table group, built once with the database, the clock and
// what each needs beside them. Only these classes touch the community's tables.
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db.js';
import type { Keys } from '../../../platform/keys.js';
import { AgentStore } from './agents.js';
import { CommentStore } from './comments.js';
import { CommunityStore } from './communities.js';
import { PostStore } from './posts.js';
import type { Quota } from './quotas.js';
import { VoteStore } from './votes.js';

export interface StoreOptions {
  quotas: { posts: Quota; comments: Quota };
  maxCommentDepth: number;
}

export class Stores {
  readonly agents: AgentStore;
  readonly communities: CommunityStore;
  readonly posts: PostStore;
  readonly comments: CommentStore;
  readonly votes: VoteStore;

  constructor(db: Db, clock: Clock, keys: Keys, options: StoreOptions) {
    this.agents = new AgentStore(db, clock, keys);
    this.communities = new CommunityStore(db, clock);
    this.posts = new PostStore(db, clock, options.quotas.posts);
    this.comments = new CommentStore(db, clock, options.quotas.comments, options.maxCommentDepth);
    this.votes = new VoteStore(db, clock);
  }
}
