// The mail service as the console sees it. A mail key sees one organization (its owner, or the
// key itself), so a single console key would see none of the agents' inboxes. The console
// therefore holds one key per organization, minted in the platform's key store with that
// organization as owner (the way the mail API's own /v0/api-keys mints them), and calls the
// public API with it. Keys are named like ServiceClient's, so the next start revokes them.
import { CONSOLE_KEY_NAME } from '../../../platform/keys.js';
import type { ServiceResponse } from '../../../platform/console-client.js';
import type { ServicePagesContext } from '../../../platform/console-pages.js';

/** The organization of the key ServiceClient holds for mail (it has no inboxes). */
const OWN_ORG = 'console';
const OWN: Organization = { id: OWN_ORG, label: 'Hamlet' };

export interface Organization {
  id: string;
  /** What people call it: the name of its first key, else the key's last characters. */
  label: string;
}

export interface InboxJson {
  inbox_id: string;
  display_name?: string;
  created_at: string;
}

/** A mail API answer that was not 2xx, kept with its status so pages can answer the same. */
export class MailApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class MailSource {
  private readonly keys = new Map<string, Promise<string>>();
  private readonly orgOfInbox = new Map<string, string>();

  constructor(private readonly ctx: ServicePagesContext) {}

  get running(): boolean {
    return this.ctx.client.baseUrl('mail') !== undefined;
  }

  /**
   * Every organization that has (or had) a mail key, oldest first. With none, the console's own
   * (empty) organization stands in.
   */
  async organizations(): Promise<Organization[]> {
    const byId = new Map<string, Organization>();
    for (const k of await this.ctx.platform.keys.list('mail')) {
      if (k.name === CONSOLE_KEY_NAME) continue;
      const id = k.ownerId ?? k.id;
      if (!byId.has(id)) byId.set(id, { id, label: k.name ?? `key …${k.hint}` });
    }
    return byId.size ? [...byId.values()] : [OWN];
  }

  /**
   * Who the outbox page asks: every organization, and the console itself, whose key is the
   * operator's, the only one that sees Hamlet's own held mail (a blog's verification link).
   */
  async outboxReaders(): Promise<Organization[]> {
    const orgs = await this.organizations();
    return orgs.some((o) => o.id === OWN_ORG) ? orgs : [...orgs, OWN];
  }

  /** Calls the mail API as the organization; a non-2xx answer throws MailApiError. */
  async get<T>(org: string, path: string): Promise<T> {
    const res = await this.call<T>(org, path);
    if (res.status >= 300)
      throw new MailApiError(res.status, errorText(res.body) ?? `the mail API answered ${res.status}`);
    return res.body;
  }

  /** The raw answer (for downloads, whose bodies are not JSON). */
  async fetch(org: string, path: string): Promise<Response> {
    const base = this.ctx.client.baseUrl('mail');
    if (!base) throw new MailApiError(503, 'The mail service is not running here');
    return fetch(base + path, { headers: { authorization: `Bearer ${await this.keyOf(org)}` } });
  }

  /** Every organization's inboxes (at most 100 each: the API's largest page). */
  async inboxes(): Promise<Array<{ org: Organization; inboxes: InboxJson[]; more: boolean }>> {
    const orgs = await this.organizations();
    return Promise.all(
      orgs.map(async (org) => {
        const { inboxes, next_page_token } = await this.get<{ inboxes: InboxJson[]; next_page_token?: string }>(
          org.id,
          '/v0/inboxes?limit=100',
        );
        for (const inbox of inboxes) this.orgOfInbox.set(inbox.inbox_id, org.id);
        return { org, inboxes, more: !!next_page_token };
      }),
    );
  }

  /** The organization an inbox belongs to, or undefined when none of them has it. */
  async orgOf(inboxId: string): Promise<string | undefined> {
    const known = this.orgOfInbox.get(inboxId);
    if (known) return known;
    for (const org of await this.organizations()) {
      const res = await this.call(org.id, `/v0/inboxes/${encodeURIComponent(inboxId)}`);
      if (res.status === 200) {
        this.orgOfInbox.set(inboxId, org.id);
        return org.id;
      }
    }
    return undefined;
  }

  private async call<T>(org: string, path: string): Promise<ServiceResponse<T>> {
    if (!this.running) throw new MailApiError(503, 'The mail service is not running here');
    return this.ctx.client.request<T>('mail', path, { auth: await this.keyOf(org) });
  }

  private keyOf(org: string): Promise<string> {
    if (org === OWN_ORG) return Promise.resolve(this.ctx.client.keyFor('mail') ?? '');
    let key = this.keys.get(org);
    if (!key) {
      // Kept as a promise so two requests at once share one key.
      key = this.ctx.client.mint('mail', { name: CONSOLE_KEY_NAME, ownerId: org });
      key.catch(() => this.keys.delete(org));
      this.keys.set(org, key);
    }
    return key;
  }
}

function errorText(body: unknown): string | undefined {
  const b = body as { message?: unknown; error?: { message?: unknown } } | undefined;
  const m = b?.error?.message ?? b?.message;
  return typeof m === 'string' ? m : undefined;
}
