// The workflows' changed rows as people read them (the semantic diff of evaluations):
// workflows created, activated, deactivated, edited or deleted, executions that ran, tags.
// Version counters and timestamps that move with every save are not changes of their own.
import { shown, type WorldChangeDescriber } from '../../../platform/world.js';

const BOOKKEEPING = new Set([
  'updated_at',
  'version_id',
  'active_version_id',
  'version_counter',
  'trigger_count',
  'static_data',
  'meta',
]);

export const describeWorkflowChange: WorldChangeDescriber = (c, lookup) => {
  const row = (c.after ?? c.before)!;
  if (c.table === 'workflow_workflows') {
    const name = String(row.name);
    if (c.change === 'added')
      return {
        kind: 'workflow.created',
        subject: name,
        text: `workflow "${shown(name)}" created${row.active ? ' (active)' : ''}`,
      };
    if (c.change === 'removed')
      return { kind: 'workflow.deleted', subject: name, text: `workflow "${shown(name)}" deleted` };
    const columns = (c.columns ?? []).filter((col) => !BOOKKEEPING.has(col));
    if (columns.includes('active')) {
      const on = Boolean(Number(c.after!.active));
      return {
        kind: on ? 'workflow.activated' : 'workflow.deactivated',
        subject: name,
        text: `workflow "${shown(name)}" ${on ? 'activated' : 'deactivated'}`,
      };
    }
    if (!columns.length) return null;
    return {
      kind: 'workflow.updated',
      subject: name,
      text: `workflow "${shown(name)}" updated (${columns.join(', ')})`,
    };
  }
  if (c.table === 'workflow_executions') {
    // An execution's progress (running → success) is one run: the row as it ends says it.
    if (c.change === 'changed') return null;
    const name = String(lookup('workflow_workflows', { id: row.workflow_id })?.name ?? row.workflow_id);
    if (c.change === 'removed')
      return { kind: 'execution.deleted', subject: name, text: `an execution of "${shown(name)}" deleted` };
    return {
      kind: 'execution.ran',
      subject: name,
      text: `workflow "${shown(name)}" ran (${shown(row.mode)}): ${shown(row.status)}`,
    };
  }
  if (c.table === 'workflow_tags' || c.table === 'workflow_workflow_tags') {
    return {
      kind: `tag.${c.change}`,
      subject: String(row.name ?? row.tag_id),
      text: `tag ${shown(row.name ?? row.tag_id)} ${c.change}`,
    };
  }
  return undefined;
};
