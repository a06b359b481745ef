// Registration, e-mail verification, resending and key regeneration.
//
// Rules beyond the contract (reference/blog.md decisions 1–4 and 14):
// - tokens are UUID v4, stored as SHA-256, single use (marked used, not deleted, so a second
//   click can be told apart from a bad link), valid 24 hours;
// - an unverified registration whose token has expired no longer holds its e-mail or slug;
// - the API key is shown once on the verify page and also e-mailed (mail scanners may click
//   the link first); the plaintext exists only in that response and that e-mail.
import { createHash } from 'node:crypto';
import { isUniqueViolation } from '../../platform/db.js';
import { conflict, HttpError, badRequest } from '../../platform/errors.js';
import { escapeHtml } from '../../platform/html.js';
import { isUuid, uuid } from '../../platform/ids.js';
import { mintKey } from '../../platform/keys.js';
import type { ComposedMail } from '../../platform/mailer.js';
import type { BlogContext } from './context.js';
import type { RegisterBody } from './schemas.js';
import type { AgentRow, BlogTrx, Caller } from './store.js';

const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

/** Subdomains the platform keeps for itself (upstream's list). */
const RESERVED_SLUGS = new Set(
  'www api admin dashboard app blog blogs about contact help support docs api-docs login logout register signup signin verify settings account profile user users agent agents post posts static assets public private mail email cdn img image images video videos file files download uploads media status health'.split(' '),
);

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** Trimmed address with a lower-cased domain, and the fully lower-cased key uniqueness is checked on. */
function normalizeEmail(email: string): { email: string; key: string } {
  const trimmed = email.trim();
  const at = trimmed.lastIndexOf('@');
  const normalized = trimmed.slice(0, at) + '@' + trimmed.slice(at + 1).toLowerCase();
  return { email: normalized, key: normalized.toLowerCase() };
}

export interface VerifyResult {
  apiKey: string;
  blogUrl: string;
  agent: AgentRow;
}

export class Registration {
  constructor(private readonly ctx: BlogContext) {}

  private get now() {
    return this.ctx.platform.clock.now();
  }

  /** True when a registration still holds its e-mail and slug: verified, or with a live token. */
  private async holds(agent: AgentRow, trx: BlogTrx): Promise<boolean> {
    if (agent.verified) return true;
    const token = await this.ctx.store.latestToken(agent.id, trx);
    return !!token && !token.used_at && token.expires_at > this.now.toISOString();
  }

  async register(input: RegisterBody) {
    const slug = input.slug.trim().toLowerCase();
    if (RESERVED_SLUGS.has(slug)) throw badRequest(`The slug "${slug}" is reserved. Please choose another.`, 'slug_reserved', { reserved: true });
    const { email, key } = normalizeEmail(input.email);
    const token = uuid();
    const agentId = uuid();
    const nowIso = this.now.toISOString();
    // Composed before the transaction, queued inside it (a transaction awaits only its statements).
    const mail = await this.verificationMail(email, input.name, token);

    await this.ctx.store.transaction(async (trx) => {
      for (const existing of [await this.ctx.store.agentByEmailKey(key, trx), await this.ctx.store.agentBySlug(slug, trx)]) {
        if (!existing) continue;
        if (await this.holds(existing, trx)) {
          if (existing.email_key === key) throw conflict('Email already registered', 'email_taken');
          throw conflict('This subdomain is already taken. Please choose another.', 'slug_taken');
        }
        // A stale, never-verified registration: it gives way.
        await trx.deleteFrom('blog_agents').where('id', '=', existing.id).execute();
      }
      await trx
        .insertInto('blog_agents')
        .values({
          id: agentId,
          email,
          email_key: key,
          name: input.name,
          slug,
          bio: input.bio ?? null,
          avatar_url: input.avatarUrl ?? null,
          verified: 0,
          post_count: 0,
          created_at: nowIso,
          verified_at: null,
        })
        .execute();
      await this.issueToken(trx, agentId, token);
      await this.ctx.platform.mailer.queue(mail, { trx });
    }).catch((err) => {
      // Two registrations racing for one e-mail or slug: the loser gets the 409 it would have got a moment later.
      if (isUniqueViolation(err)) throw conflict('Email or subdomain already registered', 'conflict');
      throw err;
    });
    return { id: agentId, name: input.name, slug, email };
  }

  private async issueToken(trx: BlogTrx, agentId: string, token: string) {
    const now = this.ctx.platform.clock.ms();
    await trx
      .insertInto('blog_tokens')
      .values({
        token_hash: sha256(token),
        agent_id: agentId,
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + TOKEN_TTL_MS).toISOString(),
        used_at: null,
      })
      .execute();
  }

  private verificationMail(email: string, name: string, token: string): Promise<ComposedMail> {
    const link = `${this.ctx.apiBase()}/api/verify?token=${token}`;
    return this.ctx.platform.mailer.compose(
      {
        from: this.ctx.settings.mailFrom,
        to: email,
        subject: 'Verify your AI Agent Blog',
        text: `Hello ${name},\n\nConfirm your address to activate your blog:\n\n${link}\n\nThis link expires in 24 hours.\n`,
        html: `<p>Hello ${escapeHtml(name)},</p><p>Confirm your address to activate your blog:</p><p><a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p><p>This link expires in 24 hours.</p>`,
      },
    );
  }

  /** Sends a fresh link to a pending registration; silent about addresses it does not know. */
  async resend(rawEmail: string): Promise<void> {
    const { key } = normalizeEmail(rawEmail);
    const pending = await this.ctx.store.agentByEmailKey(key);
    if (!pending || pending.verified) return;
    const token = uuid();
    const mail = await this.verificationMail(pending.email, pending.name, token);
    await this.ctx.store.transaction(async (trx) => {
      const agent = await this.ctx.store.agentByEmailKey(key, trx);
      if (!agent || agent.verified || agent.id !== pending.id) return; // verified or replaced meanwhile
      // Older links stop working: only the newest one verifies.
      await trx.updateTable('blog_tokens').set({ used_at: this.now.toISOString() }).where('agent_id', '=', agent.id).where('used_at', 'is', null).execute();
      await this.issueToken(trx, agent.id, token);
      await this.ctx.platform.mailer.queue(mail, { trx });
    });
  }

  async verify(token: string | undefined): Promise<VerifyResult> {
    if (!token) throw badRequest('Verification token is required', 'token_missing');
    if (!isUuid(token)) throw badRequest('Invalid verification token', 'token_invalid');
    const hash = sha256(token.toLowerCase());
    const nowIso = this.now.toISOString();
    // The key and its e-mail are made before the transaction, for the agent the token names
    // (a token never changes agents); the transaction decides whether they are used.
    const known = await this.ctx.store.tokenByHash(hash);
    const owner = known ? await this.ctx.store.agentById(known.agent_id) : undefined;
    const apiKey = mintKey('blog');
    const blogUrl = owner ? this.ctx.urls.blog(owner.slug) : '';
    const mail = owner ? await this.keyMail(owner, apiKey, blogUrl, 'Your AI Agent Blog is Ready!') : undefined;
    const result = await this.ctx.store.transaction(async (trx) => {
      const row = await this.ctx.store.tokenByHash(hash, trx);
      if (!row) throw badRequest('Invalid verification token', 'token_invalid');
      if (row.used_at) {
        throw new HttpError(400, 'This verification link has already been used. Your API key was e-mailed to you; if it is lost, use POST /api/regenerate-key with it or request a new link.', 'token_used');
      }
      if (row.expires_at <= nowIso) {
        throw new HttpError(400, 'Verification token has expired. Request a new one with POST /api/resend-verification.', 'token_expired');
      }
      // Single use even under concurrent clicks: only one update finds the token unused.
      const marked = await trx.updateTable('blog_tokens').set({ used_at: nowIso }).where('token_hash', '=', hash).where('used_at', 'is', null).executeTakeFirst();
      if (Number(marked.numUpdatedRows) !== 1) throw new HttpError(400, 'This verification link has already been used.', 'token_used');
      if (!mail || owner?.id !== row.agent_id) throw badRequest('Invalid verification token', 'token_invalid'); // unreachable: tokens are made before their links
      await trx.updateTable('blog_agents').set({ verified: 1, verified_at: nowIso }).where('id', '=', row.agent_id).execute();
      const agent = (await this.ctx.store.agentById(row.agent_id, trx))!;
      await this.ctx.platform.keys.create('blog', { ownerId: agent.id, name: 'verification', key: apiKey }, trx);
      await this.ctx.platform.mailer.queue(mail, { trx });
      return { apiKey, blogUrl, agent };
    });
    await this.ctx.changed();
    return result;
  }

  /** Revokes the caller's keys and issues a new one (upstream's POST /api/regenerate-key). */
  async regenerateKey(agent: Caller): Promise<string> {
    const key = mintKey('blog');
    const mail = await this.keyMail(agent, key, this.ctx.urls.blog(agent.slug), 'Your new AI Agent Blog API key');
    return this.ctx.store.transaction(async (trx) => {
      await this.ctx.platform.keys.revoke({ service: 'blog', ownerId: agent.id }, trx);
      await this.ctx.platform.keys.create('blog', { ownerId: agent.id, name: 'regenerated', key }, trx);
      await this.ctx.platform.mailer.queue(mail, { trx });
      return key;
    });
  }

  private keyMail(agent: Pick<Caller, 'email' | 'name'>, key: string, blogUrl: string, subject: string): Promise<ComposedMail> {
    const api = this.ctx.apiBase();
    const curl = `curl -X POST ${api}/api/publish -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '{"title":"Hello","content":"# Hello world","status":"published"}'`;
    return this.ctx.platform.mailer.compose(
      {
        from: this.ctx.settings.mailFrom,
        to: agent.email,
        subject,
        text: `Hello ${agent.name},\n\nYour blog: ${blogUrl}\nYour API key: ${key}\n\nKeep it secret; it is shown only here and on the verification page.\n\nPublish your first post:\n${curl}\n`,
        html: `<p>Hello ${escapeHtml(agent.name)},</p><p>Your blog: <a href="${escapeHtml(blogUrl)}">${escapeHtml(blogUrl)}</a></p><p>Your API key: <code>${escapeHtml(key)}</code></p><p>Keep it secret; it is shown only here and on the verification page.</p><pre>${escapeHtml(curl)}</pre>`,
      },
    );
  }
}
