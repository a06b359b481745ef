// What an organization an agent signed up for itself may do before a person confirms it
// (AgentMail's "agent_unverified" state, docs.agentmail.to: agent sign-up limits): one inbox,
// no custom domains, no new API keys, pods or list entries, and mail only to the person
// attached to it, ten recipients a day. Verification lifts them all. Every instance reads the
// state through a cache that sign-up, verification and a world restore clear.
import { DomainError } from '../../../platform/errors.js';
import type { EventBus } from '../../../platform/events.js';
import { bareAddress } from '../addresses.js';
import type { AgentOrgRow, MailStore, Tx } from '../store/index.js';

const UNVERIFIED_INBOXES = 1;
const UNVERIFIED_SENDS_PER_DAY = 10;

const CHANGED_TOPIC = 'mail.agent_orgs.changed';

/** Routes an unverified organization may not use: [method, route pattern]. */
const VERIFIED_ONLY: Array<[string, RegExp, string]> = [
  ['POST', /\/api-keys$/, 'create API keys'],
  ['POST', /^\/v0\/pods$/, 'create pods'],
  ['PATCH', /^\/v0\/pods\/:pod_id$/, 'update pods'],
  ['DELETE', /^\/v0\/pods\/:pod_id$/, 'delete pods'],
  ['POST', /\/lists\//, 'add list entries'],
  ['POST', /\/domains$/, 'add custom domains'],
];

export class AgentRules {
  /** org id → its sign-up row, or null for an organization an operator made. */
  private readonly cache = new Map<string, AgentOrgRow | null>();
  readonly close: () => void;

  constructor(
    private readonly store: MailStore,
    private readonly events: EventBus,
  ) {
    this.close = events.subscribe<{ orgId: string }>(CHANGED_TOPIC, (m) => {
      this.cache.delete(m.orgId);
    });
  }

  /** The organization's sign-up while it is unverified; undefined once verified or for an operator's organization. */
  async unverified(orgId: string, trx?: Tx): Promise<AgentOrgRow | undefined> {
    let row = this.cache.get(orgId);
    if (row === undefined) {
      // Inside a transaction, through it (SQLite has one connection: a read beside it would wait on it).
      row = (await this.store.agentOrgs.get(orgId, trx)) ?? null;
      if (this.cache.size > 50_000) this.cache.clear();
      this.cache.set(orgId, row);
    }
    return row && !row.verified_at ? row : undefined;
  }

  /** Tells every instance that an organization's sign-up changed. */
  async changed(orgId: string): Promise<void> {
    this.cache.delete(orgId);
    await this.events.publish(CHANGED_TOPIC, { orgId });
  }

  forgetAll(): void {
    this.cache.clear();
  }

  /** Refuses, before it runs, a request an unverified organization may not make. */
  async checkRoute(orgId: string, method: string, route: string): Promise<void> {
    const rule = VERIFIED_ONLY.find(([m, pattern]) => m === method && pattern.test(route));
    if (!rule || !(await this.unverified(orgId))) return;
    throw new DomainError(
      'forbidden',
      `An unverified agent organization cannot ${rule[2]}: verify it first (POST /v0/agent/verify with the code mailed to its human)`,
      'forbidden',
      { code: 'AGENT_UNVERIFIED' },
    );
  }

  /** Refuses a new inbox past the unverified organization's one. */
  async checkNewInbox(orgId: string, existing: number): Promise<void> {
    if (existing >= UNVERIFIED_INBOXES && (await this.unverified(orgId))) {
      throw new DomainError(
        'forbidden',
        `Inbox limit exceeded: an unverified agent organization has ${UNVERIFIED_INBOXES} inbox`,
        'limit_exceeded',
        { code: 'limit_exceeded', limit: UNVERIFIED_INBOXES },
      );
    }
  }

  /**
   * Before a send from an unverified organization is written (in its transaction): every
   * recipient must be the attached person, and the day's recipients stay within the limit
   * (counted on the platform clock's UTC day; each recipient counts as one email).
   */
  async checkSend(trx: Tx, orgId: string, recipients: string[], now: Date): Promise<void> {
    if (!(await this.unverified(orgId, trx))) return;
    const row = await this.store.agentOrgs.getForUpdate(orgId, trx);
    if (!row || row.verified_at) return;
    const blocked = recipients.map(bareAddress).filter((a) => a !== row.human_email);
    if (!row.human_email) {
      throw new DomainError(
        'forbidden',
        'Message rejected: an agent organization without a human cannot send; attach one (POST /v0/agent/human)',
        'message_rejected',
        { code: 'message_rejected' },
      );
    }
    if (blocked.length) {
      throw new DomainError(
        'forbidden',
        `Message rejected: Recipient(s) blocked: ${blocked.join(', ')} (not in allow list)`,
        'message_rejected',
        { code: 'message_rejected', recipients: blocked },
      );
    }
    const day = now.toISOString().slice(0, 10);
    const sentToday = row.sent_day === day ? row.sent_count : 0;
    if (sentToday + recipients.length > UNVERIFIED_SENDS_PER_DAY) {
      const nextDay = Date.parse(`${day}T00:00:00.000Z`) + 86_400_000;
      throw new DomainError(
        'limited',
        `Daily send limit exceeded: an unverified agent organization may send ${UNVERIFIED_SENDS_PER_DAY} emails a day (each recipient counts)`,
        'rate_limit_exceeded',
        {
          limit: UNVERIFIED_SENDS_PER_DAY,
          retry_after_seconds: Math.max(1, Math.ceil((nextDay - now.getTime()) / 1000)),
        },
      );
    }
    await this.store.agentOrgs.update(
      orgId,
      { sent_day: day, sent_count: sentToday + recipients.length, updated_at: now.toISOString() },
      trx,
    );
  }
}
