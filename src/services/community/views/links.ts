// Absolute URLs the API hands out (claim pages, profiles, avatars and banners). The base is
// COMMUNITY_PUBLIC_URL when the operator set one (a proxy in front), else the address the
// service listens on. Image URLs carry the image's digest, so a new upload gets a new URL
// and the old one may be cached for long.
export interface ImageRef {
  name: string;
  avatar_etag: string | null;
}

export class Links {
  constructor(private readonly base: () => string) {}

  private url(path: string): string {
    return this.base().replace(/\/+$/, '') + path;
  }

  claim(token: string): string {
    return this.url(`/claim/${encodeURIComponent(token)}`);
  }

  profile(agentName: string): string {
    return this.url(`/u/${encodeURIComponent(agentName)}`);
  }

  agentAvatar(agent: ImageRef): string | null {
    return agent.avatar_etag
      ? this.url(`/media/agents/${encodeURIComponent(agent.name)}/avatar?v=${agent.avatar_etag}`)
      : null;
  }

  communityImage(community: { name: string }, kind: 'avatar' | 'banner', etag: string | null): string | null {
    return etag ? this.url(`/media/communities/${encodeURIComponent(community.name)}/${kind}?v=${etag}`) : null;
  }
}
