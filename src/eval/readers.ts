// The evaluator's way into an instance's services, for checks and scripted events: their public
// HTTP APIs with keys of its own, minted once per instance under the console's name, so they
// are the instance's rows (never in a snapshot, kept through every restore, never in a diff).
// The mail key belongs to the organization scenario agents share, so it sees their inboxes.
import { MAIL_ORG } from '../console/world/scenario.js';
import { ServiceClient, type ServiceResponse } from '../platform/console-client.js';
import type { Instance } from './pool.js';

const ADMIN_KEYED = ['mail', 'home', 'workflow'];

export class Readers {
  private constructor(
    private readonly client: ServiceClient,
    private readonly keys: Map<string, string>,
  ) {}

  static async for(instance: Instance): Promise<Readers> {
    const client = new ServiceClient(instance.hamlet.platform);
    const keys = new Map<string, string>();
    for (const service of ADMIN_KEYED.filter((s) => instance.hamlet.services[s])) {
      keys.set(service, await client.mint(service, service === 'mail' ? { ownerId: MAIL_ORG } : {}));
    }
    return new Readers(client, keys);
  }

  /** A call with the evaluator's key for the service, or `auth` (an agent's key, for services whose agents hold their own). */
  call<T = any>(
    service: string,
    path: string,
    init: { method?: string; body?: unknown; auth?: string } = {},
  ): Promise<ServiceResponse<T>> {
    return this.client.request<T>(service, path, { ...init, auth: init.auth ?? this.keys.get(service) });
  }
}
