// AgentID ("Sign in with AgentMail"): an agent signs in to a provider (a site that accepts
// AgentID) with one of its inboxes as its identity. Two ways in, as AgentMail has them:
//
// - connect: the agent asks to sign an inbox in to a provider (POST /v0/providers/{id}/connect)
//   and gets a single-use magic URL, valid five minutes, for the client that will hold the
//   sign-in; the client opens it and proves its public key, and the pending key turns active.
// - authorize: a client already waits at the provider's sign-in (it started one with its public
//   key and shows an auth token); the agent authorizes that token for an inbox
//   (POST /v0/inboxes/{id}/authorize), and the client finishes the same way.
//
// Either way the credential is a public-key API key (pending, then active for 30 days) and the
// inbox gets an account at the provider, counted on every sign-in. Hamlet plays AgentID's own
// part too (the provider registry, the client's side: http/agentid.ts, /agentid/…).
import { createHash, createPublicKey, randomBytes } from 'node:crypto';
import { DomainError } from '../../../platform/errors.js';
import { uuid } from '../../../platform/ids.js';
import type { Clock } from '../../../platform/clock.js';
import { invalid, notFoundError } from '../errors.js';
import type { Permissions } from '../api-keys/keys.js';
import type { AccountRow, InboxRow, MailStore, ProviderRow, SignInKeyRow, SignInRow, Tx } from '../store/index.js';

/** A magic link lives five minutes (AgentMail's connect). */
const MAGIC_LINK_MS = 5 * 60_000;
/** How long a client's started sign-in waits for an agent to authorize it. */
const WAITING_SIGN_IN_MS = 10 * 60_000;
/** A sign-in key expires 30 days after activation. */
const KEY_LIFETIME_MS = 30 * 24 * 3600_000;
/** AgentMail's auth token: 22 URL-safe characters (16 random bytes). */
const AUTH_TOKEN = /^[A-Za-z0-9_-]{22}$/;
const JWK_MEMBERS = ['crv', 'kty', 'x', 'y'];

export const AUTHORIZED = 'Authorization complete. Return to browser.';

/** The bearer key acting: its id and its permissions (undefined: all). */
export interface Actor {
  keyId: string;
  permissions?: Permissions;
}

export interface ProviderInput {
  name: string;
  description?: string;
  logo_url?: string;
  terms_url?: string;
  privacy_url?: string;
  listed?: boolean;
  owner_signup_limit?: number;
}

/** A public P-256 JWK exactly as AgentMail accepts it: kty, crv, x and y, a point on the curve. */
function checkedJwk(value: unknown, field = 'public_key'): { jwk: Record<string, string>; fingerprint: string } {
  const jwk = value as Record<string, unknown>;
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk)) throw invalid(field, 'must be a public P-256 JWK object');
  const members = Object.keys(jwk).sort();
  if (members.join(',') !== JWK_MEMBERS.join(','))
    throw invalid(
      field,
      `must have exactly kty, crv, x and y (got ${members.join(', ') || 'nothing'}); private key material is refused`,
    );
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw invalid(field, 'must be kty EC, crv P-256');
  for (const c of ['x', 'y'] as const) {
    const v = jwk[c];
    if (typeof v !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(v) || Buffer.from(v, 'base64url').length !== 32)
      throw invalid(`${field}.${c}`, 'must be a 32-byte coordinate in unpadded base64url');
  }
  try {
    createPublicKey({ key: jwk as unknown as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch {
    throw invalid(field, 'is not a point on P-256');
  }
  const clean = { crv: 'P-256', kty: 'EC', x: jwk.x as string, y: jwk.y as string };
  // RFC 7638: SHA-256 of the required members, in lexical order, without spaces.
  const fingerprint = createHash('sha256').update(JSON.stringify(clean)).digest('base64url');
  return { jwk: clean, fingerprint };
}

/** What a sign-in key carries of the key that created it: exactly the two provider permissions. */
function signInPermissions(creator?: Permissions): Permissions {
  return {
    provider_connect: !creator || creator.provider_connect === true,
    provider_share_owner: !creator || creator.provider_share_owner === true,
  };
}

export class AgentId {
  constructor(
    private readonly store: MailStore,
    private readonly clock: Clock,
  ) {}

  private now(): string {
    return this.clock.now().toISOString();
  }

  private later(ms: number): string {
    return new Date(this.clock.now().getTime() + ms).toISOString();
  }

  async register(orgId: string, input: ProviderInput): Promise<ProviderRow> {
    const now = this.now();
    const row: ProviderRow = {
      provider_id: uuid(),
      org_id: orgId,
      name: input.name,
      description: input.description ?? null,
      logo_url: input.logo_url ?? null,
      terms_url: input.terms_url ?? null,
      privacy_url: input.privacy_url ?? null,
      listed: input.listed === false ? 0 : 1,
      owner_signup_limit: input.owner_signup_limit ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.store.agentId.insertProvider(row);
    return row;
  }

  /** Any registered provider, listed or not (unlisted ones are read and connected by id). */
  async provider(providerId: string, trx?: Tx): Promise<ProviderRow> {
    const row = await this.store.agentId.provider(providerId, trx);
    if (!row) throw notFoundError('Provider');
    return row;
  }

  /** Connect: a pending key for `inbox` and the magic link's token that activates it. */
  async connect(
    actor: Actor,
    providerId: string,
    inbox: InboxRow,
  ): Promise<{ key: SignInKeyRow; token: string; expiresAt: string }> {
    const provider = await this.provider(providerId);
    const token = randomBytes(24).toString('base64url');
    const expiresAt = this.later(MAGIC_LINK_MS);
    await this.store.agentId.dropExpiredSignIns(this.now());
    const key = await this.store.transaction(async (trx) => {
      await this.checkSignupLimit(provider, inbox, trx);
      const key = await this.pendingKey(actor, provider, inbox, trx);
      await this.store.agentId.insertSignIn(
        {
          token,
          flow: 'connect',
          provider_id: provider.provider_id,
          org_id: inbox.org_id,
          inbox_id: inbox.inbox_id,
          api_key_id: key.api_key_id,
          authorized_by: actor.keyId,
          public_key: null,
          status: 'authorized',
          expires_at: expiresAt,
          created_at: this.now(),
        },
        trx,
      );
      return key;
    });
    return { key, token, expiresAt };
  }

  /** The client's side: a sign-in at a provider, waiting for an agent to authorize its token. */
  async start(providerId: string, publicKey: unknown): Promise<SignInRow> {
    const provider = await this.provider(providerId);
    const jwk = publicKey === undefined ? undefined : checkedJwk(publicKey);
    await this.store.agentId.dropExpiredSignIns(this.now());
    const row: SignInRow = {
      token: randomBytes(16).toString('base64url'),
      flow: 'authorize',
      provider_id: provider.provider_id,
      org_id: null,
      inbox_id: null,
      api_key_id: null,
      authorized_by: null,
      public_key: jwk ? JSON.stringify(jwk.jwk) : null,
      status: 'waiting',
      expires_at: this.later(WAITING_SIGN_IN_MS),
      created_at: this.now(),
    };
    await this.store.agentId.insertSignIn(row);
    return row;
  }

  /** Authorize: the waiting sign-in of `token` for `inbox`; a repeat by the same key for the same inbox answers the same key. */
  async authorize(actor: Actor, inbox: InboxRow, token: string): Promise<string> {
    if (!AUTH_TOKEN.test(token)) throw invalid('auth_token', 'must be the 22-character token the sign-in page shows');
    return this.store.transaction(async (trx) => {
      const signIn = await this.live(token, trx);
      if (signIn?.flow === 'authorize' && signIn.status !== 'waiting') {
        if (signIn.inbox_id === inbox.inbox_id && signIn.authorized_by === actor.keyId && signIn.api_key_id)
          return signIn.api_key_id;
        throw notFoundError('Pending sign-in');
      }
      if (!signIn || signIn.flow !== 'authorize') throw notFoundError('Pending sign-in');
      // Inside the transaction, every read goes through it (a transaction waits on nothing else).
      const provider = await this.provider(signIn.provider_id, trx);
      await this.checkSignupLimit(provider, inbox, trx);
      const key = await this.pendingKey(actor, provider, inbox, trx);
      await this.store.agentId.updateSignIn(
        token,
        {
          status: 'authorized',
          org_id: inbox.org_id,
          inbox_id: inbox.inbox_id,
          api_key_id: key.api_key_id,
          authorized_by: actor.keyId,
        },
        trx,
      );
      return key.api_key_id;
    });
  }

  /** A sign-in as its client sees it (not past its time). */
  async signIn(token: string): Promise<SignInRow> {
    const row = await this.live(token);
    if (!row) throw notFoundError('Sign-in');
    return row;
  }

  /**
   * The client finishes an authorized sign-in: proves its public key (given now, or when it
   * started), the key turns active for 30 days, and the inbox's account at the provider counts
   * the sign-in (made on the first).
   */
  async complete(token: string, publicKey: unknown): Promise<{ key: SignInKeyRow; account: AccountRow }> {
    return this.store.transaction(async (trx) => {
      const signIn = await this.live(token, trx);
      if (!signIn) throw notFoundError('Sign-in');
      if (signIn.status === 'waiting')
        throw new DomainError('conflict', 'No agent has authorized this sign-in yet', 'conflict', {
          code: 'NOT_AUTHORIZED',
        });
      if (signIn.status === 'completed')
        throw new DomainError(
          'conflict',
          'This sign-in is already complete; a link or token is used once',
          'conflict',
          { code: 'ALREADY_COMPLETED' },
        );
      const started = signIn.public_key ? checkedJwk(JSON.parse(signIn.public_key)) : undefined;
      const given = publicKey === undefined ? undefined : checkedJwk(publicKey);
      if (given && started && given.fingerprint !== started.fingerprint)
        throw invalid('public_key', 'is not the key this sign-in was started with');
      const proved = given ?? started;
      if (!proved) throw invalid('public_key', 'is required: the public key the client will sign in with', 'REQUIRED');
      const now = this.now();
      const key = (await this.store.agentId.key(signIn.api_key_id!, trx))!;
      const active: Partial<SignInKeyRow> = {
        status: 'active',
        public_key: JSON.stringify(proved.jwk),
        fingerprint: proved.fingerprint,
        name: `AgentID key ${proved.fingerprint.slice(0, 8)}`,
        updated_at: now,
        expires_at: this.later(KEY_LIFETIME_MS),
      };
      await this.store.agentId.updateKey(key.api_key_id, active, trx);
      await this.store.agentId.updateSignIn(token, { status: 'completed' }, trx);
      let account = await this.store.agentId.accountOf(signIn.provider_id, key.inbox_id, trx);
      if (account) await this.store.agentId.countSignIn(account.account_id, now, trx);
      else {
        account = {
          account_id: uuid(),
          provider_id: signIn.provider_id,
          inbox_id: key.inbox_id,
          pod_id: key.pod_id,
          org_id: key.org_id,
          first_signed_in_at: now,
          last_signed_in_at: now,
          sign_in_count: 0,
        };
        await this.store.agentId.insertAccount({ ...account, sign_in_count: 1 }, trx);
      }
      return {
        key: { ...key, ...active },
        account: { ...account, last_signed_in_at: now, sign_in_count: account.sign_in_count + 1 },
      };
    });
  }

  private async live(token: string, trx?: Tx): Promise<SignInRow | undefined> {
    const row = await this.store.agentId.signIn(token, trx);
    return row && (row.status === 'completed' || row.expires_at > this.now()) ? row : undefined;
  }

  /** A provider's sign-up limit counts the organization's accounts there; a sign-in to an existing account is always let through. */
  private async checkSignupLimit(provider: ProviderRow, inbox: InboxRow, trx: Tx): Promise<void> {
    if (provider.owner_signup_limit === null) return;
    if (await this.store.agentId.accountOf(provider.provider_id, inbox.inbox_id, trx)) return;
    if (
      (await this.store.agentId.accountsOfOrgAt(inbox.org_id, provider.provider_id, trx)) >= provider.owner_signup_limit
    ) {
      throw new DomainError(
        'forbidden',
        `${provider.name} accepts no more sign-ups from your organization`,
        'forbidden',
        { code: 'APP_SIGNUP_LIMIT' },
      );
    }
  }

  private async pendingKey(actor: Actor, provider: ProviderRow, inbox: InboxRow, trx: Tx): Promise<SignInKeyRow> {
    const now = this.now();
    const key: SignInKeyRow = {
      api_key_id: uuid(),
      org_id: inbox.org_id,
      pod_id: inbox.pod_id,
      inbox_id: inbox.inbox_id,
      provider_id: provider.provider_id,
      name: `AgentID sign-in at ${provider.name}`,
      status: 'pending',
      public_key: null,
      fingerprint: null,
      permissions: JSON.stringify(signInPermissions(actor.permissions)),
      created_by: actor.keyId,
      created_at: now,
      updated_at: now,
      expires_at: null,
    };
    await this.store.agentId.insertKey(key, trx);
    return key;
  }
}

/** AgentMail's Provider: the whole entry for a listed one, its id and name for one outside the catalog. */
export function providerRecord(p: ProviderRow) {
  if (!p.listed) return { provider_id: p.provider_id, name: p.name };
  return {
    provider_id: p.provider_id,
    name: p.name,
    updated_at: p.updated_at,
    ...(p.description ? { description: p.description } : {}),
    ...(p.logo_url ? { logo_url: p.logo_url } : {}),
    ...(p.terms_url ? { terms_url: p.terms_url } : {}),
    ...(p.privacy_url ? { privacy_url: p.privacy_url } : {}),
    ...(p.owner_signup_limit !== null ? { owner_signup_limit: p.owner_signup_limit } : {}),
  };
}

/** AgentMail's Account. */
export function accountRecord(a: AccountRow, providerName?: string) {
  return {
    account_id: a.account_id,
    provider_id: a.provider_id,
    ...(providerName ? { provider_name: providerName } : {}),
    inbox_id: a.inbox_id,
    pod_id: a.pod_id,
    organization_id: a.org_id,
    first_signed_in_at: a.first_signed_in_at,
    last_signed_in_at: a.last_signed_in_at,
    sign_in_count: a.sign_in_count,
  };
}

/** AgentMail's PublicKeyCredential for a sign-in key. */
export function signInKeyRecord(k: SignInKeyRow) {
  return {
    type: 'public_key' as const,
    api_key_id: k.api_key_id,
    name: k.name,
    ...(k.public_key
      ? { public_key: { jwk: JSON.parse(k.public_key) as Record<string, string>, fingerprint: k.fingerprint } }
      : {}),
    pod_id: k.pod_id,
    inbox_id: k.inbox_id,
    status: k.status,
    permissions: JSON.parse(k.permissions) as Permissions,
    created_by: { api_key_id: k.created_by },
    created_at: k.created_at,
    updated_at: k.updated_at,
    ...(k.expires_at ? { expires_at: k.expires_at } : {}),
  };
}
