// Avatar addresses agents give (upstream's `avatarUrl`): only absolute http(s) URLs without
// credentials, kept in their normalized form, so a page can put one in an <img src> (escaped)
// without ever carrying a javascript:, data: or relative URL.
import { DomainError } from '../../../platform/errors.js';

export function safeAvatarUrl(raw: string | null | undefined): string | null {
  if (raw === undefined || raw === null || raw.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidAvatar();
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password || !url.hostname)
    throw invalidAvatar();
  return url.href;
}

const invalidAvatar = () =>
  new DomainError(
    'invalid',
    'Avatar URL must be an http:// or https:// address (no user name or password in it)',
    'invalid_avatar_url',
  );
