// Registration, e-mail verification, resending and key regeneration.
//
// Rules beyond the contract (reference/blog.md decisions 1–4 and 14):
// - tokens are UUID v4, stored as SHA-256, single use (marked used, not deleted, so a second
//   click can be told apart from a bad link), valid 24 hours;
// - an unverified registration whose token has expired no longer holds its e-mail or slug;
// - the API key is shown once on the verify page and also e-mailed (mail scanners may click
//   the link first); the plaintext exists only in that response and that e-mail.
import { createHash } from 'node:crypto';
import type { Clock } from '../../../platform/clock.js';
import type { Db } from '../../../platform/db.js';
import { DomainError } from '../../../platform/errors.js';
import { isUuid, uuid } from '../../../platform/ids.js';
import { mintKey, type Keys } from '../../../platform/keys.js';
import type { BlogChanges } from '../changes.js';
import type { AgentStore } from '../store/agents.js';
import type { AgentRow, Caller, TokenRow } from '../store/tables.js';
import type { BlogUrls } from '../urls.js';
import { safeAvatarUrl } from './avatar.js';
import type { RegistrationMails } from './mails.js';

const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** The slug rule of the contract: it becomes a subdomain. */
export const REGISTRATION_SLUG = '^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$';

/** Subdomains the platform keeps for itself (upstream's list). */
const RESERVED_SLUGS = new Set(
  'www api admin dashboard app blog blogs about contact help support docs api-docs login logout register signup signin verify settings account profile user users agent agents post posts static assets public private mail email cdn img image images video videos file files download uploads media status health'.split(
    ' ',
  ),
);

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Trimmed address with a lower-cased domain, and the fully lower-cased key uniqueness is checked on. */
function normalizeEmail(email: string): { email: string; key: string } {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  const normalized = trimmed.slice(0, at) + '@' + trimmed.slice(at + 1).toLowerCase();
  return { email: normalized, key: normalized.toLowerCase() };
}

export interface RegistrationInput {
  email: string;
  name: string;
  slug: string;
  bio?: string | null;
  avatarUrl?: string | null;
}

export interface VerifyResult {
  apiKey: string;
  blogUrl: string;
  agent: AgentRow;
}

export interface RegistrationDeps {
  agents: AgentStore;
  mails: RegistrationMails;
  keys: Keys;
  clock: Clock;
  urls: BlogUrls;
  changes: BlogChanges;
  /** For key regeneration, which writes only platform tables (keys, mail outbox) in one transaction. */
  db: Db;
  /**
   * Called with each verification link after its mail is queued: in local mode (no relay)
   * the start-up wiring logs links whose mail has nowhere to go.
   */
  onVerificationLink?: (email: string, link: string) => void;
}

export interface ProfileChanges {
  name?: string;
  bio?: string | null;
  avatarUrl?: string | null;
}

export class Registration {
  constructor(private readonly deps: RegistrationDeps) {}

  private token(agentId: string, token: string): TokenRow {
    const now = this.deps.clock.ms();
    return {
      token_hash: sha256(token),
      agent_id: agentId,
      created_at: new Date(now).toISOString(),
      expires_at: new Date(now + TOKEN_TTL_MS).toISOString(),
      used_at: null,
    };
  }

  async register(input: RegistrationInput) {
    const slug = input.slug.trim().toLowerCase();
    if (RESERVED_SLUGS.has(slug))
      throw new DomainError('invalid', `The slug "${slug}" is reserved. Please choose another.`, 'slug_reserved', {
        reserved: true,
      });
    const { email, key } = normalizeEmail(input.email);
    const token = uuid();
    const agentId = uuid();
    const nowIso = this.deps.clock.now().toISOString();
    // Composed before the transaction, queued inside it (a transaction awaits only its statements).
    const mail = await this.deps.mails.verification({ email, name: input.name }, token);
    const agent: AgentRow = {
      id: agentId,
      email,
      email_key: key,
      name: input.name,
      slug,
      bio: input.bio ?? null,
      avatar_url: safeAvatarUrl(input.avatarUrl),
      verified: 0,
      post_count: 0,
      created_at: nowIso,
      verified_at: null,
    };
    await this.deps.agents.register(agent, this.token(agentId, token), (trx) => this.deps.mails.queue(mail, trx));
    this.deps.onVerificationLink?.(email, this.deps.mails.verificationLink(token));
    return { id: agentId, name: input.name, slug, email };
  }

  /** Sends a fresh link to a pending registration; silent about addresses it does not know. */
  async resend(rawEmail: string): Promise<void> {
    const { key } = normalizeEmail(rawEmail);
    const pending = await this.deps.agents.byEmailKey(key);
    if (!pending || pending.verified) return;
    const token = uuid();
    const mail = await this.deps.mails.verification(pending, token);
    // Verified or replaced meanwhile: nothing to send.
    const renewed = await this.deps.agents.renewToken(pending, this.token(pending.id, token), (trx) =>
      this.deps.mails.queue(mail, trx),
    );
    if (renewed) this.deps.onVerificationLink?.(pending.email, this.deps.mails.verificationLink(token));
  }

  /** Changes the caller's name, bio or avatar (fields left out stay; null clears bio and avatar). */
  async updateProfile(agent: Caller, changes: ProfileChanges): Promise<AgentRow> {
    const row = await this.deps.agents.updateProfile(agent.id, {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.bio !== undefined ? { bio: changes.bio } : {}),
      ...(changes.avatarUrl !== undefined ? { avatar_url: safeAvatarUrl(changes.avatarUrl) } : {}),
    });
    await this.deps.changes.announce({ agentId: agent.id });
    return row;
  }

  async verify(token: string | undefined): Promise<VerifyResult> {
    if (!token) throw new DomainError('invalid', 'Verification token is required', 'token_missing');
    if (!isUuid(token)) throw new DomainError('invalid', 'Invalid verification token', 'token_invalid');
    const hash = sha256(token.toLowerCase());
    const nowIso = this.deps.clock.now().toISOString();
    // The key and its e-mail are made before the transaction, for the agent the token names
    // (a token never changes agents); the transaction decides whether they are used.
    const known = await this.deps.agents.tokenByHash(hash);
    const owner = known ? await this.deps.agents.byId(known.agent_id) : undefined;
    const apiKey = mintKey('blog');
    const blogUrl = owner ? this.deps.urls.blog(owner.slug) : '';
    const mail = owner ? await this.deps.mails.key(owner, apiKey, blogUrl, 'Your AI Agent Blog is Ready!') : undefined;
    const agent = await this.deps.agents.verify(hash, nowIso, owner?.id, async (trx, verified) => {
      await this.deps.keys.create('blog', { ownerId: verified.id, name: 'verification', key: apiKey }, trx);
      await this.deps.mails.queue(mail!, trx); // there is an owner whenever verify gets here
    });
    await this.deps.changes.announce();
    return { apiKey, blogUrl, agent };
  }

  /** Revokes the caller's keys and issues a new one (upstream's POST /api/regenerate-key). */
  async regenerateKey(agent: Caller): Promise<string> {
    const key = mintKey('blog');
    const mail = await this.deps.mails.key(
      agent,
      key,
      this.deps.urls.blog(agent.slug),
      'Your new AI Agent Blog API key',
    );
    return this.deps.db.kysely.transaction().execute(async (trx) => {
      await this.deps.keys.revoke({ service: 'blog', ownerId: agent.id }, trx);
      await this.deps.keys.create('blog', { ownerId: agent.id, name: 'regenerated', key }, trx);
      await this.deps.mails.queue(mail, trx);
      return key;
    });
  }
}
