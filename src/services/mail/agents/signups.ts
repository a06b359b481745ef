// Agents signing themselves up (AgentMail's /v0/agent/sign-up, /human and /verify): a new
// organization with one inbox and an API key, restricted (agents/rules.ts) until the person the
// agent names confirms it with the 6-digit code mailed to them. The code goes out through the
// platform mailer like every platform mail: into a Hamlet inbox when the person's address is
// one, to the relay, or held in the outbox for the operator.
import type { Platform } from '../../../platform/service.js';
import { DomainError } from '../../../platform/errors.js';
import { uuid } from '../../../platform/ids.js';
import { escapeHtml } from '../../../platform/html.js';
import { bareAddress, inboxUsername, isAddress } from '../addresses.js';
import { invalid, notFoundError } from '../errors.js';
import type { MailApiKeys } from '../api-keys/keys.js';
import { podIdOf } from '../identity/scope.js';
import { isDuplicate, type AgentOrgRow, type MailStore, type Tx } from '../store/index.js';
import type { AgentRules } from './rules.js';
import { newOtp, OTP_MAX_ATTEMPTS, otpDigest, otpExpired, otpMatches } from './otp.js';

/** How often an organization may replace the person attached to it. */
const MAX_HUMAN_CHANGES = 2;
const KEY_NAME = 'agent sign-up';

export interface SignUpInput {
  human_email?: string | null;
  username: string;
  source?: string | null;
  referrer?: string | null;
}

export class AgentSignups {
  constructor(
    private readonly platform: Platform,
    private readonly store: MailStore,
    private readonly apiKeys: MailApiKeys,
    private readonly rules: AgentRules,
    /** The server's first mail domain: new inboxes and the code's sender live there. */
    private readonly domain: string,
  ) {}

  /**
   * A new organization, or, for a person already attached to an unverified one, that one again
   * with a fresh key (the old one stops working) and a fresh code if the last one expired.
   */
  async signUp(input: SignUpInput): Promise<{ organization_id: string; inbox_id: string; api_key: string }> {
    const username = inboxUsername(input.username);
    const human = input.human_email != null ? humanAddress(input.human_email) : null;
    if (human) {
      const existing = await this.store.agentOrgs.byHuman(human);
      if (existing) return this.signUpAgain(existing);
    }
    const orgId = uuid();
    const inboxId = `${username}@${this.domain}`;
    const { row: keyRow, key } = await this.apiKeys.create({ orgId }, { name: KEY_NAME });
    const now = this.platform.clock.now().toISOString();
    const code = human ? newOtp() : null;
    const mail = human && code ? await this.codeMail(human, code, inboxId) : undefined;
    try {
      await this.store.transaction(async (trx) => {
        await this.store.inboxes.insert(
          {
            inbox_id: inboxId,
            org_id: orgId,
            pod_id: podIdOf(orgId),
            display_name: null,
            client_id: null,
            metadata: null,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        await this.store.agentOrgs.insert(
          {
            org_id: orgId,
            username,
            inbox_id: inboxId,
            api_key_id: keyRow.api_key_id,
            human_email: human,
            human_changes: 0,
            otp_digest: code ? otpDigest(orgId, code) : null,
            otp_issued_at: code ? now : null,
            otp_attempts: 0,
            sent_day: null,
            sent_count: 0,
            source: input.source ?? null,
            referrer: input.referrer ?? null,
            verified_at: null,
            created_at: now,
            updated_at: now,
          },
          trx,
        );
        if (mail) await this.platform.mailer.queue(mail, { trx });
      });
    } catch (err) {
      await this.apiKeys.revoke(keyRow);
      // The same person signing up twice at once: the other request made the organization.
      if (human && isDuplicate(err)) {
        const winner = await this.store.agentOrgs.byHuman(human);
        if (winner) return this.signUpAgain(winner);
      }
      if (err instanceof DomainError && err.kind === 'conflict')
        throw new DomainError(
          'conflict',
          `The username ${username} is taken (${inboxId}): choose another`,
          'is_taken',
          { field: 'username', code: 'IS_TAKEN' },
        );
      throw err;
    }
    await this.rules.changed(orgId);
    return { organization_id: orgId, inbox_id: inboxId, api_key: key };
  }

  private async signUpAgain(org: AgentOrgRow): Promise<{ organization_id: string; inbox_id: string; api_key: string }> {
    if (org.verified_at) {
      throw new DomainError(
        'conflict',
        "This person's agent organization is verified already: use its API key (sign-up rotates keys only until verification)",
        'already_verified',
        { field: 'human_email', code: 'ALREADY_VERIFIED' },
      );
    }
    const old = await this.store.apiKeys.get(org.api_key_id);
    if (old) await this.apiKeys.revoke(old);
    const { row: keyRow, key } = await this.apiKeys.create({ orgId: org.org_id }, { name: KEY_NAME });
    const now = this.platform.clock.now();
    const fresh = otpExpired(org.otp_issued_at, now.getTime()) && org.human_email ? newOtp() : null;
    const mail = fresh && org.human_email ? await this.codeMail(org.human_email, fresh, org.inbox_id) : undefined;
    await this.store.transaction(async (trx) => {
      await this.store.agentOrgs.update(
        org.org_id,
        {
          api_key_id: keyRow.api_key_id,
          updated_at: now.toISOString(),
          ...(fresh ? this.issued(org.org_id, fresh, now) : {}),
        },
        trx,
      );
      if (mail) await this.platform.mailer.queue(mail, { trx });
    });
    await this.rules.changed(org.org_id);
    return { organization_id: org.org_id, inbox_id: org.inbox_id, api_key: key };
  }

  /**
   * Attaches a person (or the same one again: a new code only when the last expired; or another
   * one, at most MAX_HUMAN_CHANGES times), until the organization is verified.
   */
  async attachHuman(orgId: string, email: string): Promise<{ human_email: string }> {
    const human = humanAddress(email);
    const now = this.platform.clock.now();
    const outcome = await this.store.transaction(async (trx) => {
      const org = await this.unverifiedOrg(orgId, trx, 'attach a human');
      const same = org.human_email === human;
      if (same && !otpExpired(org.otp_issued_at, now.getTime())) return undefined;
      if (!same && org.human_email && org.human_changes >= MAX_HUMAN_CHANGES) {
        throw new DomainError(
          'forbidden',
          `The human of an agent organization can be replaced at most ${MAX_HUMAN_CHANGES} times`,
          'limit_exceeded',
          { field: 'human_email', code: 'limit_exceeded', limit: MAX_HUMAN_CHANGES },
        );
      }
      const holder = same ? undefined : await this.store.agentOrgs.byHuman(human, trx);
      if (holder)
        throw new DomainError('conflict', 'This person is attached to another agent organization', 'conflict', {
          field: 'human_email',
          code: 'ALREADY_EXISTS',
        });
      const code = newOtp();
      await this.store.agentOrgs.update(
        orgId,
        {
          human_email: human,
          human_changes: org.human_changes + (!same && org.human_email ? 1 : 0),
          ...this.issued(orgId, code, now),
        },
        trx,
      );
      return { code, inboxId: org.inbox_id };
    });
    if (outcome) {
      // Composed after the row is written, so a refused request sends nothing; queued durably at once.
      await this.platform.mailer.queue(await this.codeMail(human, outcome.code, outcome.inboxId));
      await this.rules.changed(orgId);
    }
    return { human_email: human };
  }

  /** Checks the code; the right one lifts every restriction. A verified organization answers verified again. */
  async verify(orgId: string, code: string): Promise<{ verified: boolean }> {
    const now = this.platform.clock.now();
    const result = await this.store.transaction(async (trx) => {
      const org = await this.store.agentOrgs.getForUpdate(orgId, trx);
      if (!org) throw notFoundError('Agent sign-up of this organization');
      if (org.verified_at) return { verified: true, changed: false };
      if (!org.otp_digest)
        throw invalid('otp_code', 'no code was sent yet: attach a human first (POST /v0/agent/human)', 'NO_OTP');
      if (org.otp_attempts >= OTP_MAX_ATTEMPTS) {
        throw new DomainError(
          'forbidden',
          `All ${OTP_MAX_ATTEMPTS} attempts are used: wait until the code expires (24 hours after it was sent), then ask for a new one (POST /v0/agent/human)`,
          'forbidden',
          { field: 'otp_code', code: 'TOO_MANY_ATTEMPTS' },
        );
      }
      if (otpExpired(org.otp_issued_at, now.getTime()))
        throw invalid(
          'otp_code',
          'the code expired: ask for a new one (POST /v0/agent/human with the same human_email)',
          'OTP_EXPIRED',
        );
      if (!otpMatches(orgId, code, org.otp_digest)) {
        const attempts = org.otp_attempts + 1;
        await this.store.agentOrgs.update(orgId, { otp_attempts: attempts, updated_at: now.toISOString() }, trx);
        return { verified: false, changed: false, left: OTP_MAX_ATTEMPTS - attempts };
      }
      await this.store.agentOrgs.update(
        orgId,
        { verified_at: now.toISOString(), otp_digest: null, updated_at: now.toISOString() },
        trx,
      );
      return { verified: true, changed: true };
    });
    // A wrong code is counted (committed above), then refused.
    if (!result.verified)
      throw invalid('otp_code', `the code is not the one sent (${result.left} attempts left)`, 'INVALID_OTP');
    if (result.changed) await this.rules.changed(orgId);
    return { verified: true };
  }

  private async unverifiedOrg(orgId: string, trx: Tx, action: string): Promise<AgentOrgRow> {
    const org = await this.store.agentOrgs.getForUpdate(orgId, trx);
    if (!org) throw notFoundError('Agent sign-up of this organization');
    if (org.verified_at)
      throw new DomainError('forbidden', `The organization is verified: there is no need to ${action}`, 'forbidden', {
        code: 'ALREADY_VERIFIED',
      });
    return org;
  }

  private issued(
    orgId: string,
    code: string,
    now: Date,
  ): Pick<AgentOrgRow, 'otp_digest' | 'otp_issued_at' | 'otp_attempts' | 'updated_at'> {
    return {
      otp_digest: otpDigest(orgId, code),
      otp_issued_at: now.toISOString(),
      otp_attempts: 0,
      updated_at: now.toISOString(),
    };
  }

  private codeMail(to: string, code: string, inboxId: string) {
    const text = `Your agent signed up for the inbox ${inboxId} and named you as its human.\n\nIts verification code: ${code}\n\nThe code expires in 24 hours. Until it is verified, the agent can email only you, 10 emails a day.\n`;
    return this.platform.mailer.compose({
      from: `Hamlet mail <no-reply@${this.domain}>`,
      to,
      // The code stays out of the subject: subjects are shown in lists, feeds and the trace's summaries.
      subject: "Your agent's verification code",
      text,
      html: text
        .split('\n\n')
        .map((p) => `<p>${escapeHtml(p)}</p>`)
        .join(''),
    });
  }
}

function humanAddress(value: string): string {
  const address = bareAddress(value);
  if (!isAddress(address)) throw invalid('human_email', 'must be an email address', 'INVALID_EMAIL');
  return address;
}
