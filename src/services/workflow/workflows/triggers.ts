// Which nodes start a workflow, and which one a run starts from.
import type { TriggerKind } from '../engine/node-type.js';
import type { WorkflowDefinition, WorkflowNode } from '../engine/types.js';
import { nodeRegistry } from '../nodes/registry.js';

export const triggerKind = (node: WorkflowNode): TriggerKind | undefined => nodeRegistry.get(node.type)?.trigger;

/** Triggers that make a workflow activatable: ones that fire on their own (not manual, error or sub-workflow starts). */
export function activatableTriggers(wf: Pick<WorkflowDefinition, 'nodes'>): WorkflowNode[] {
  return (wf.nodes ?? []).filter((n) => !n.disabled && ['webhook', 'schedule', 'event'].includes(triggerKind(n) ?? ''));
}

/**
 * The node a run starts at: a trigger of the preferred kind; for manual runs the Manual
 * Trigger, else the first enabled trigger of any kind.
 */
export function findStartNode(wf: Pick<WorkflowDefinition, 'nodes'>, prefer: TriggerKind): string | undefined {
  const enabled = (wf.nodes ?? []).filter((n) => !n.disabled && triggerKind(n));
  const exact = enabled.find((n) => triggerKind(n) === prefer);
  if (exact) return exact.name;
  if (prefer === 'manual' || prefer === 'workflow') return enabled[0]?.name;
  return undefined;
}
