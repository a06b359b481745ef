// The DNS records an operator publishes for a custom domain (MX, SPF, DKIM, DMARC, and the
// wildcard MX and tracking CNAME when those are enabled), and how each is checked against
// what a DNS lookup answers.
import type { DomainRow } from '../store/index.js';
import { dkimRecordValue } from './dkim.js';

export type RecordType = 'MX' | 'TXT' | 'CNAME';
export type RecordStatus = 'MISSING' | 'INVALID' | 'VALID';

export interface ExpectedRecord {
  /** What the record is for (also its key in the stored statuses). */
  purpose: 'mx' | 'spf' | 'dkim' | 'dmarc' | 'wildcard_mx' | 'tracking';
  type: RecordType;
  name: string;
  value: string;
  priority?: number;
}

export interface CheckedRecord {
  status: RecordStatus;
  reason?: string;
}

/** The lookups verification needs; node:dns/promises' Resolver has them (tests may pass their own). */
export interface DnsLookups {
  resolveMx(name: string): Promise<Array<{ exchange: string; priority: number }>>;
  resolveTxt(name: string): Promise<string[][]>;
  resolveCname(name: string): Promise<string[]>;
}

/** The SPF policy published: this server's MX hosts may send for the domain; others soft-fail. */
const SPF_VALUE = 'v=spf1 mx ~all';
/** DMARC in monitoring mode: nothing is rejected because of a record published too early. */
const DMARC_VALUE = 'v=DMARC1; p=none';

export function expectedRecords(d: DomainRow, mxHost: string): ExpectedRecord[] {
  const out: ExpectedRecord[] = [
    { purpose: 'mx', type: 'MX', name: d.domain, value: mxHost, priority: 10 },
    { purpose: 'spf', type: 'TXT', name: d.domain, value: SPF_VALUE },
    {
      purpose: 'dkim',
      type: 'TXT',
      name: `${d.dkim_selector}._domainkey.${d.domain}`,
      value: dkimRecordValue(d.dkim_public_key),
    },
    { purpose: 'dmarc', type: 'TXT', name: `_dmarc.${d.domain}`, value: DMARC_VALUE },
  ];
  if (d.subdomains_enabled)
    out.push({ purpose: 'wildcard_mx', type: 'MX', name: `*.${d.domain}`, value: mxHost, priority: 10 });
  if (d.tracking_enabled) out.push({ purpose: 'tracking', type: 'CNAME', name: `link.${d.domain}`, value: mxHost });
  return out;
}

const bareHost = (h: string) => h.toLowerCase().replace(/\.$/, '');
const tags = (txt: string) =>
  new Map(
    txt
      .split(';')
      .map((t) => t.trim().split('='))
      .filter((kv) => kv.length >= 2)
      .map(([k, ...v]) => [k.trim().toLowerCase(), v.join('=').replace(/\s+/g, '')]),
  );

/** "No such name" and "no record of that type" mean missing; any other failure is reported as such. */
async function lookup<T>(fn: () => Promise<T[]>): Promise<{ records: T[]; failed?: string }> {
  try {
    return { records: await fn() };
  } catch (err) {
    const code = (err as { code?: string }).code ?? 'error';
    if (code === 'ENODATA' || code === 'ENOTFOUND') return { records: [] };
    return { records: [], failed: `lookup_failed: ${code}` };
  }
}

/** Checks one expected record against the DNS. */
export async function checkRecord(dns: DnsLookups, r: ExpectedRecord): Promise<CheckedRecord> {
  if (r.type === 'MX') {
    const { records, failed } = await lookup(() => dns.resolveMx(r.name));
    if (failed) return { status: 'MISSING', reason: failed };
    if (!records.length) return { status: 'MISSING' };
    return records.some((m) => bareHost(m.exchange) === bareHost(r.value))
      ? { status: 'VALID' }
      : { status: 'INVALID', reason: 'value_mismatch' };
  }
  if (r.type === 'CNAME') {
    const { records, failed } = await lookup(() => dns.resolveCname(r.name));
    if (failed) return { status: 'MISSING', reason: failed };
    if (!records.length) return { status: 'MISSING' };
    return records.some((c) => bareHost(c) === bareHost(r.value))
      ? { status: 'VALID' }
      : { status: 'INVALID', reason: 'value_mismatch' };
  }
  const { records, failed } = await lookup(() => dns.resolveTxt(r.name));
  if (failed) return { status: 'MISSING', reason: failed };
  const texts = records.map((chunks) => chunks.join(''));
  if (r.purpose === 'dkim') {
    const keys = texts.map(tags).filter((t) => t.has('p'));
    if (!keys.length) return { status: 'MISSING' };
    const want = tags(r.value).get('p');
    return keys.some((t) => t.get('p') === want)
      ? { status: 'VALID' }
      : { status: 'INVALID', reason: 'value_mismatch' };
  }
  const prefix = r.purpose === 'spf' ? 'v=spf1' : 'v=dmarc1';
  const found = texts.filter((t) => t.trim().toLowerCase().startsWith(prefix));
  if (!found.length) return { status: 'MISSING' };
  // Two SPF (or DMARC) records make both invalid (RFC 7208 §4.5, RFC 7489 §6.6.3).
  if (found.length > 1) return { status: 'INVALID', reason: 'duplicate_records' };
  if (r.purpose === 'dmarc') return { status: 'VALID' };
  // The operator's own SPF policy is fine as long as it lets this server's MX hosts send.
  const spf = found[0].toLowerCase().split(/\s+/);
  return spf.some((m) => /^[+]?mx(?::|$)/.test(m) || m.includes('include:') || m.startsWith('a:'))
    ? { status: 'VALID' }
    : { status: 'INVALID', reason: 'value_mismatch' };
}
