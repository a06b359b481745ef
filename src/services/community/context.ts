// Everything a route or page needs, built once at start.
import type { Platform } from '../../platform/service.js';
import type { ListCache } from './cache.js';
import type { Links } from './views/links.js';
import type { CommunitySettings } from './settings.js';
import type { Stores } from './store/index.js';

export interface Ctx {
  platform: Platform;
  store: Stores;
  cache: ListCache;
  config: CommunitySettings;
  /** Absolute URLs of claim pages, profiles and images. */
  links: Links;
  /** Route config of the per-key request limit every authenticated route shares. */
  requestLimit: ReturnType<Platform['limits']['route']>;
}
