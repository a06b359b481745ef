// AgentMail's API key permissions: a key created with `permissions` may do only what is set
// true there (a key without them may do everything). Each route needs the permission of its
// resource and verb; include_spam/blocked/unauthenticated/trash need the matching label_*_read.

/** Path words that name an action on the resource before them, not a resource of their own. */
const ACTIONS = new Set([
  'search',
  'send',
  'reply',
  'reply-all',
  'forward',
  'batch-get',
  'batch-update',
  'headers',
  'verify',
  'mark-verified',
  'zone-file',
  'setup-link',
  'attachments',
  'raw',
  'events',
  'usage',
]);
const RESOURCES: Record<string, string> = {
  inboxes: 'inbox',
  messages: 'message',
  threads: 'message',
  drafts: 'draft',
  webhooks: 'webhook',
  domains: 'domain',
  lists: 'list_entry',
  metrics: 'metrics',
  'api-keys': 'api_key',
  pods: 'pod',
  // AgentMail: an inbox's accounts at providers are read with inbox_read.
  accounts: 'inbox',
};
/** AgentID's actions: signing an inbox in to a provider (connect, authorize) takes provider_connect. */
const SIGN_IN_ACTIONS = new Set(['connect', 'authorize']);
const HIDDEN_LABELS = ['spam', 'blocked', 'unauthenticated', 'trash'];

/**
 * The permission a route needs: its last resource word and the HTTP verb (`/v0/inboxes/:id/threads`
 * GET → message_read). Undefined for routes every key may use (auth/me, organizations, downloads,
 * the provider catalog).
 */
export function permissionFor(method: string, routeUrl: string): string | undefined {
  const words = routeUrl.split('/').filter((w) => w && w !== 'v0' && !w.startsWith(':'));
  if (method === 'POST' && SIGN_IN_ACTIONS.has(words[words.length - 1] ?? '')) return 'provider_connect';
  const action = words.findLast((w) => ACTIONS.has(w));
  const resourceWord = words.findLast((w) => w in RESOURCES);
  if (!resourceWord) return undefined;
  const resource = RESOURCES[resourceWord];
  if (resource === 'metrics') return 'metrics_read';
  if (method === 'GET' || action === 'search' || action === 'batch-get') return `${resource}_read`;
  if (resource === 'message') {
    if (method === 'POST' && (action === undefined || ['send', 'reply', 'reply-all', 'forward'].includes(action)))
      return 'message_send';
    return method === 'DELETE' ? 'message_delete' : 'message_update';
  }
  if (resource === 'draft' && action === 'send') return 'draft_send';
  if (resource === 'domain' && (action === 'verify' || action === 'mark-verified')) return 'domain_update';
  if (method === 'POST') return `${resource}_create`;
  if (method === 'DELETE') return `${resource}_delete`;
  return `${resource}_update`;
}

/** The permissions a request needs that `granted` lacks (empty when allowed; `granted` undefined means all). */
export function missingPermissions(
  granted: Record<string, boolean> | undefined,
  method: string,
  routeUrl: string,
  query: Record<string, unknown>,
): string[] {
  if (!granted) return [];
  const needed = [
    permissionFor(method, routeUrl),
    ...HIDDEN_LABELS.filter((l) => String(query[`include_${l}`]) === 'true').map((l) => `label_${l}_read`),
  ];
  return needed.filter((p): p is string => !!p && granted[p] !== true);
}

/** What a key with `own` permissions may grant a key it creates: never more than it has. */
export function grantable(
  own: Record<string, boolean> | undefined,
  asked: Record<string, boolean> | undefined,
): Record<string, boolean> | undefined {
  if (!own) return asked;
  if (!asked) return own;
  return Object.fromEntries(Object.entries(asked).map(([k, v]) => [k, v && own[k] === true]));
}
