// Custom domains: added with a generated DKIM key and the DNS records to publish, verified by
// looking those records up (node:dns, through the resolvers in MAIL_DNS_RESOLVER) or marked
// verified by hand where no DNS is reachable. A verified domain takes mail over SMTP for its
// inboxes, may hold inboxes, and its outgoing mail is DKIM-signed.
// A domain verified or deleted on one instance of a cluster is announced on the bus, so every
// instance's SMTP takes its mail and every instance signs (or stops signing) with its key.
import { Resolver } from 'node:dns/promises';
import type { Platform } from '../../../platform/service.js';
import { invalid, notFoundError } from '../errors.js';
import type { MailSettings } from '../settings.js';
import type { DomainRow, MailStore } from '../store/index.js';
import type { MailEvents } from '../webhooks/events.js';
import { podIdOf, type RequestScope } from '../identity/scope.js';
import { dkimSign, generateDkimKey } from './dkim.js';
import { checkRecord, expectedRecords, type CheckedRecord, type DnsLookups } from './records.js';

export type DomainStatus = 'NOT_STARTED' | 'PENDING' | 'INVALID' | 'FAILED' | 'VERIFYING' | 'VERIFIED';

const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
/** How long a send remembers that its domain has no DKIM key (domains are verified rarely, mail is sent often). */
const NEGATIVE_TTL_MS = 30_000;
const DOMAIN_CHANGED_TOPIC = 'mail.domain.changed';

export interface DomainInput {
  domain?: string;
  feedback_enabled?: boolean | null;
  subdomains_enabled?: boolean | null;
  tracking_enabled?: boolean | null;
  client_id?: string | null;
}

export class Domains {
  private readonly signing = new Map<string, { row?: DomainRow; until: number }>();
  /** Stops hearing other instances' domain changes (service stop). */
  readonly close: () => void;

  constructor(
    private readonly store: MailStore,
    private readonly platform: Platform,
    private readonly config: MailSettings,
    private readonly events: MailEvents,
    /** The DNS the verification asks; by default node:dns with the configured resolvers. */
    private readonly dns: DnsLookups = systemResolver(config.dnsResolvers),
  ) {
    this.close = platform.events.subscribe<{ domain: string; verified: boolean }>(DOMAIN_CHANGED_TOPIC, (m) =>
      this.forget(m.domain, m.verified),
    );
  }

  /** What this instance remembers of a domain, after a change here or on another instance. */
  private forget(domain: string, verified: boolean): void {
    this.signing.delete(domain);
    if (verified) this.platform.mailer.addLocalDomain(domain);
  }

  private async changed(domain: string, verified: boolean): Promise<void> {
    this.forget(domain, verified);
    await this.platform.events.publish(DOMAIN_CHANGED_TOPIC, { domain, verified });
  }

  /** At start: verified domains take mail over SMTP (the platform mailer routes them here). */
  /** After a world restore: the restored domains take mail, their signing keys are read again. */
  async reload(): Promise<void> {
    this.signing.clear();
    await this.load();
  }

  async load(): Promise<void> {
    for (const d of await this.store.domains.all())
      if (d.status === 'VERIFIED') this.platform.mailer.addLocalDomain(d.domain);
  }

  async create(scope: RequestScope, input: DomainInput): Promise<DomainRow> {
    const domain = (input.domain ?? '').trim().toLowerCase().replace(/\.$/, '');
    if (!DOMAIN.test(domain)) throw invalid('domain', 'must be a domain name such as example.com', 'INVALID_DOMAIN');
    if (input.client_id != null) {
      const mine = await this.store.domains.byName(domain);
      if (mine && mine.org_id === scope.orgId && mine.client_id === input.client_id) return mine;
    }
    const now = this.platform.clock.now();
    const key = await generateDkimKey(now);
    const row: DomainRow = {
      domain_id: domain,
      domain,
      org_id: scope.orgId,
      pod_id: scope.podId ?? null,
      client_id: input.client_id ?? null,
      status: 'PENDING',
      feedback_enabled: input.feedback_enabled === false ? 0 : 1,
      subdomains_enabled: input.subdomains_enabled ? 1 : 0,
      tracking_enabled: input.tracking_enabled ? 1 : 0,
      dkim_selector: key.selector,
      dkim_private_key: key.privateKey,
      dkim_public_key: key.publicKey,
      record_status: null,
      verified_at: null,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    };
    await this.store.domains.insert(row);
    return row;
  }

  /** The domain if `scope` may see it (its organization, and its pod when the route or key names one). */
  async visible(scope: RequestScope, domainId: string): Promise<DomainRow> {
    const row = await this.store.domains.get(domainId.toLowerCase());
    if (!row || row.org_id !== scope.orgId || (scope.podId && row.pod_id !== scope.podId))
      throw notFoundError('Domain');
    return row;
  }

  /** Turning on subdomains or tracking adds a record: a verified domain goes back to PENDING until it is published. */
  async update(row: DomainRow, input: DomainInput): Promise<DomainRow> {
    const set: Partial<DomainRow> = { updated_at: this.platform.clock.now().toISOString() };
    if (input.feedback_enabled != null) set.feedback_enabled = input.feedback_enabled ? 1 : 0;
    if (input.subdomains_enabled != null) set.subdomains_enabled = input.subdomains_enabled ? 1 : 0;
    if (input.tracking_enabled != null) set.tracking_enabled = input.tracking_enabled ? 1 : 0;
    if (Object.keys(set).length === 1)
      throw invalid('feedback_enabled', 'give feedback_enabled, subdomains_enabled or tracking_enabled');
    const addsRecord =
      (set.subdomains_enabled === 1 && !row.subdomains_enabled) ||
      (set.tracking_enabled === 1 && !row.tracking_enabled);
    if (addsRecord && row.status === 'VERIFIED') set.status = 'PENDING';
    await this.store.domains.update(row.domain_id, set);
    return { ...row, ...set };
  }

  /** Looks every record up; all valid makes the domain VERIFIED (and it stays so until a record is added). */
  async verify(row: DomainRow): Promise<DomainRow> {
    const checked: Record<string, CheckedRecord> = {};
    for (const r of expectedRecords(row, this.config.mxHost)) checked[r.purpose] = await checkRecord(this.dns, r);
    const statuses = Object.values(checked).map((c) => c.status);
    const status: DomainStatus = statuses.every((s) => s === 'VALID')
      ? 'VERIFIED'
      : statuses.includes('INVALID')
        ? 'INVALID'
        : 'PENDING';
    return this.setStatus(row, status, checked);
  }

  /** For hosts without a reachable DNS (offline, tests): the operator vouches for the records. */
  markVerified(row: DomainRow): Promise<DomainRow> {
    const checked = Object.fromEntries(
      expectedRecords(row, this.config.mxHost).map((r) => [
        r.purpose,
        { status: 'VALID' as const, reason: 'marked_verified' },
      ]),
    );
    return this.setStatus(row, 'VERIFIED', checked);
  }

  private async setStatus(
    row: DomainRow,
    status: DomainStatus,
    checked: Record<string, CheckedRecord>,
  ): Promise<DomainRow> {
    const now = this.platform.clock.now().toISOString();
    const set: Partial<DomainRow> = { status, record_status: JSON.stringify(checked), updated_at: now };
    const becomesVerified = status === 'VERIFIED' && row.status !== 'VERIFIED';
    if (status === 'VERIFIED' && !row.verified_at) set.verified_at = now;
    await this.store.transaction(async (trx) => {
      await this.store.domains.update(row.domain_id, set, trx);
      // Webhooks hear domain.verified with the domain (no inbox: webhooks limited to inboxes do not).
      if (becomesVerified) {
        const scope = { orgId: row.org_id, podId: row.pod_id ?? podIdOf(row.org_id), inboxId: '' };
        await this.events.emit(trx, scope, 'domain.verified', () => ({ domain: this.record({ ...row, ...set }) }));
      }
    });
    await this.changed(row.domain, status === 'VERIFIED');
    return { ...row, ...set };
  }

  /** Deleting a domain keeps its inboxes and mail (they stay readable; new mail to it is refused on other instances after restart). */
  async delete(row: DomainRow): Promise<void> {
    await this.store.domains.delete(row.domain_id);
    await this.changed(row.domain, false);
  }

  /** Signs a message sent from `domain` when that domain is verified here; returns it unchanged otherwise. */
  async sign(raw: Buffer, domain: string): Promise<Buffer> {
    const now = this.platform.clock.ms();
    let hit = this.signing.get(domain);
    if (!hit || (!hit.row && hit.until < now)) {
      const row = await this.store.domains.byName(domain);
      hit = { row: row?.status === 'VERIFIED' ? row : undefined, until: now + NEGATIVE_TTL_MS };
      if (this.signing.size > 10_000) this.signing.clear();
      this.signing.set(domain, hit);
    }
    if (!hit.row) return raw;
    return dkimSign(raw, { domain, selector: hit.row.dkim_selector, privateKey: hit.row.dkim_private_key });
  }

  /** Whether the organization may make inboxes on `domain` (one of its verified domains). */
  async ownsVerified(orgId: string, domain: string): Promise<boolean> {
    const row = await this.store.domains.byName(domain);
    return !!row && row.org_id === orgId && row.status === 'VERIFIED';
  }

  /** AgentMail's Domain (the records with their last checked status). */
  record(row: DomainRow) {
    const checked = row.record_status ? (JSON.parse(row.record_status) as Record<string, CheckedRecord>) : {};
    return {
      ...this.item(row),
      status: row.status,
      ...(row.status !== 'VERIFIED'
        ? {
            reason: Object.values(checked).some((c) => c.status === 'INVALID')
              ? 'dns_records_invalid'
              : 'dns_records_missing',
          }
        : {}),
      records: expectedRecords(row, this.config.mxHost).map((r) => ({
        type: r.type,
        name: r.name,
        value: r.value,
        status: checked[r.purpose]?.status ?? 'MISSING',
        ...(r.priority !== undefined ? { priority: r.priority } : {}),
        ...(checked[r.purpose]?.reason && checked[r.purpose].status !== 'VALID'
          ? { reason: checked[r.purpose].reason }
          : {}),
      })),
    };
  }

  /** AgentMail's DomainItem (list rows); Domain adds status, reason and records. */
  item(row: DomainRow) {
    return {
      ...(row.pod_id ? { pod_id: row.pod_id } : {}),
      domain_id: row.domain_id,
      domain: row.domain,
      feedback_enabled: !!row.feedback_enabled,
      subdomains_enabled: !!row.subdomains_enabled,
      tracking_enabled: !!row.tracking_enabled,
      ...(row.client_id ? { client_id: row.client_id } : {}),
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  /** The records as a BIND zone file fragment, to paste into a DNS provider. */
  zoneFile(row: DomainRow): string {
    const lines = [`; DNS records for ${row.domain} (Hamlet mail)`, `$ORIGIN ${row.domain}.`];
    for (const r of expectedRecords(row, this.config.mxHost)) {
      const value =
        r.type === 'TXT'
          ? `"${r.value.replace(/"/g, '\\"')}"`
          : r.type === 'MX'
            ? `${r.priority} ${r.value}.`
            : `${r.value}.`;
      lines.push(`${r.name}.\t3600\tIN\t${r.type}\t${value}`);
    }
    return lines.join('\n') + '\n';
  }
}

function systemResolver(servers: string[]): DnsLookups {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  if (servers.length) resolver.setServers(servers);
  return resolver;
}
