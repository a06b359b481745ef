// What every part of the blog shares: its store, the platform, URL builders, the cache.
import type { Platform } from '../../platform/service.js';
import type { ResponseCache } from './cache.js';
import type { BlogSettings } from './settings.js';
import type { BlogStore, Caller } from './store.js';
import type { BlogUrls } from './urls.js';

export interface BlogContext {
  platform: Platform;
  settings: BlogSettings;
  store: BlogStore;
  urls: BlogUrls;
  cache: ResponseCache;
  /** Verified agents by id, remembered by auth.ts. */
  callers: Map<string, Caller>;
  /** Base URL of the API as reachable from outside (for links in e-mails); known after listen. */
  apiBase(): string;
  /** Tells every instance that blog data changed (drops cached lists and pages). */
  changed(): Promise<void>;
}

export const CHANGED_TOPIC = 'blog.changed';
