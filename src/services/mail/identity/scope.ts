// Who a mail caller is and what it may see, in the domain's terms: the organization a key
// belongs to, the default pod every organization has, and the scope a key or a request is
// narrowed to (a pod, an inbox, AgentMail's permissions). Below http/: the domain (api-keys,
// pods, domains, smtp) reads it too, and http/ maps a request onto it (http/auth.ts, http/scope.ts).
import { createHash } from 'node:crypto';

/** A key's organization: its owner when it has one, else the key itself. */
export const orgOfKey = (key: { id: string; ownerId: string | null }) => key.ownerId ?? key.id;

/** Every organization has one default pod; its id is derived, so it needs no table. */
export function podIdOf(orgId: string): string {
  const h = createHash('sha256').update(`pod:${orgId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What a key is limited to (keys minted through /v0/api-keys); empty for organization keys. */
export interface KeyScope {
  podId?: string;
  inboxId?: string;
  /** AgentMail's permissions of a key minted with them (api-keys/permissions.ts); absent: every permission. */
  permissions?: Record<string, boolean>;
}

/** What one request may see: its key's organization, narrowed by the key's scope and the route's pod or inbox. */
export interface RequestScope {
  orgId: string;
  podId?: string;
  inboxId?: string;
}
