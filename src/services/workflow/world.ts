// The workflow's part of the world: every workflow table but the instance owner's (the owner
// and their personal project belong to this installation). Credentials are restored as
// stored, so they decrypt only where the same encryption key (WORKFLOW_ENCRYPTION_KEY or the
// data directory's key file) is in use. After a restore the active workflows are armed again
// and cached lists and variables are read again.
import type { ServiceWorld } from '../../platform/world.js';
import { OWNER_TABLES } from './store/api-store.js';
import { describeWorkflowChange } from './store/describe-changes.js';
import type { Activation } from './triggers/activation.js';
import type { Variables } from './variables/variables.js';
import type { ListCaches } from './workflows/list-cache.js';

export const workflowWorld: ServiceWorld = {
  tables: (owned) => owned.filter((t) => !OWNER_TABLES.includes(t)),
  describe: describeWorkflowChange,
};

/** What to read again after a restore (RunningService.reload). */
export function reloadWorkflowAfterRestore(parts: {
  activation: Activation;
  lists: ListCaches;
  variables: Variables;
}): () => Promise<void> {
  return async () => {
    parts.lists.workflows.invalidate();
    parts.lists.executions.invalidate();
    parts.variables.changed();
    await parts.activation.reloadAll();
  };
}
