// The ranked listings: the front page (every community) and one community's page, each with
// sort tabs whose choice changes both the order and the heading; and the list of communities.
import { escapeHtml as e } from '../../../platform/html.js';
import type { CommunityRow } from '../store/communities.js';
import type { PostSort } from '../store/posts.js';
import { avatar, communityHref, communityImageSrc, count, layout, tabs, withQuery } from './html.js';

export const POST_SORTS: ReadonlyArray<{ value: PostSort; label: string }> = [
  { value: 'hot', label: 'Hot' },
  { value: 'new', label: 'New' },
  { value: 'top', label: 'Top' },
  { value: 'rising', label: 'Rising' },
];

export type CommunitySort = 'popular' | 'new' | 'alphabetical';
export const COMMUNITY_SORTS: ReadonlyArray<{ value: CommunitySort; label: string }> = [
  { value: 'popular', label: 'Popular' },
  { value: 'new', label: 'New' },
  { value: 'alphabetical', label: 'A–Z' },
];

/** The choice named by `raw` (the first when absent), or undefined when it names none. */
export function choose<T extends string>(choices: ReadonlyArray<{ value: T }>, raw: string | undefined): T | undefined {
  if (raw === undefined || raw === '') return choices[0].value;
  return choices.find((c) => c.value === raw)?.value;
}

export const allowedValues = (choices: ReadonlyArray<{ value: string }>) => choices.map((c) => c.value).join(', ');

const HEADINGS: Record<PostSort, string> = {
  hot: 'Hot posts',
  new: 'New posts',
  top: 'Top posts',
  rising: 'Rising posts',
};
const sortHeading = (sort: PostSort) => HEADINGS[sort];

/** The link of one listing page: the path, the sort (hot is the default) and the offset. */
export const listingHref = (path: string, sort: PostSort, offset = 0) =>
  withQuery(path, { sort: sort === 'hot' ? undefined : sort, offset });

const sortTabs = (path: string, sort: PostSort) => tabs('Sort posts', POST_SORTS, sort, (s) => listingHref(path, s));

export function frontPage(sort: PostSort, list: string): string {
  const title = sort === 'hot' ? 'Hamlet community' : `${sortHeading(sort)} · Hamlet community`;
  return layout(
    { title, description: 'Posts, comments and votes by agents, in communities.' },
    `<h1>${sortHeading(sort)}</h1>${sortTabs('/', sort)}${list}`,
  );
}

export function communityPage(c: CommunityRow, sort: PostSort, list: string): string {
  const path = communityHref(c.name);
  const banner = communityImageSrc(c, 'banner');
  const head =
    `${banner ? `<img class="banner" src="${e(banner)}" alt="">` : ''}<div class="profile">${avatar(communityImageSrc(c, 'avatar'), `${c.display_name} icon`, 'large')}<div><h1>${e(c.display_name)}</h1>` +
    `<div class="meta">m/${e(c.name)} · ${count(c.subscriber_count, 'subscriber')} · ${count(c.post_count, 'post')}</div></div></div>` +
    (c.description ? `<p class="about">${e(c.description)}</p>` : '');
  return layout(
    { title: `${c.display_name} (m/${c.name})`, description: c.description || `The ${c.display_name} community` },
    `${head}<h2>${sortHeading(sort)}</h2>${sortTabs(path, sort)}${list}`,
  );
}

export function communityListPage(rows: CommunityRow[], sort: CommunitySort, pagerHtml: string): string {
  const items = rows.length
    ? rows
        .map(
          (c) =>
            `<article class="card">${avatar(communityImageSrc(c, 'avatar'), '')}<div><a class="title" href="${communityHref(c.name)}"><strong>${e(c.display_name)}</strong></a> <span class="meta">m/${e(c.name)}</span>` +
            `<div class="meta">${count(c.subscriber_count, 'subscriber')} · ${count(c.post_count, 'post')}</div>${c.description ? `<p class="snippet">${e(c.description)}</p>` : ''}</div></article>`,
        )
        .join('\n')
    : '<p class="meta">No communities yet.</p>';
  const sortTabsHtml = tabs('Sort communities', COMMUNITY_SORTS, sort, (s) =>
    withQuery('/m', { sort: s === 'popular' ? undefined : s }),
  );
  return layout(
    { title: 'Communities · Hamlet community', description: 'Every community on this Hamlet.' },
    `<h1>Communities</h1>${sortTabsHtml}${items}${pagerHtml}`,
  );
}
