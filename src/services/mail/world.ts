// The mail's part of the world: every mail table but its own secrets (they belong to this
// installation: a restored world keeps working with the links this one signs). After a
// restore, cached inboxes, lists, key scopes and signing keys are read again.
import type { ServiceWorld } from '../../platform/world.js';
import type { MailApiKeys } from './api-keys/keys.js';
import type { MailCore } from './core.js';
import { describeMailChange } from './store/describe-changes.js';
import { SECRETS_TABLE } from './store/keys.js';

export const mailWorld: ServiceWorld = {
  tables: (owned) => owned.filter((t) => t !== SECRETS_TABLE),
  describe: describeMailChange,
};

/** What to read again after a restore (RunningService.reload). */
export function reloadMailAfterRestore(parts: { core: MailCore; apiKeys: MailApiKeys }): () => Promise<void> {
  return async () => {
    parts.core.cache.forgetAll();
    parts.core.receiveLists.forgetAll();
    parts.apiKeys.forgetAll();
    parts.core.agentRules.forgetAll();
    await parts.core.customDomains.reload();
  };
}
