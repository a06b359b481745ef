// What "active" means at run time: a workflow's webhooks are in the webhook table and its
// schedules are armed. Every instance keeps its own copy, refreshed through the event bus
// whenever a workflow is saved, activated or deactivated anywhere.
//
// In a cluster every instance arms the same schedules and hears the same bus events, but
// only the workflow service's leader (platform/leader.ts) turns them into executions, so a
// schedule or an event trigger runs once, not once per instance. Webhooks arrive at one
// instance and run there.
import type { Leadership } from '../../../platform/leader.js';
import type { Platform } from '../../../platform/service.js';
import { DomainError } from '../../../platform/errors.js';
import { nodeRegistry, unknownNodeType } from '../nodes/registry.js';
import type { WorkflowStore } from '../store/index.js';
import type { PreparedWorkflow, WorkflowCache } from '../workflows/model.js';
import { activatableTriggers, triggerKind } from '../workflows/triggers.js';
import { scheduleItem } from '../nodes/schedule-item.js';
import type { Runner } from '../executions/runner.js';
import type { WorkflowNode } from '../engine/types.js';
import { Schedules } from './schedules.js';
import { WebhookTable } from './webhooks.js';

/** A refusal in n8n's words, answered 400 with `{ message }`. */
const invalid = (message: string) => new DomainError('invalid', message);

const CHANGED_TOPIC = 'workflow.workflow.changed';

const NO_TRIGGER_MESSAGE =
  'Workflow cannot be activated because it has no trigger node. At least one trigger, webhook, or polling node is required.';

export class Activation {
  readonly webhooks = new WebhookTable();
  private readonly schedules: Schedules;
  private readonly active = new Map<string, PreparedWorkflow>();
  private readonly subscriptions = new Map<string, Array<() => void>>();
  private unsubscribe?: () => void;
  private readonly leadership: Leadership;

  constructor(
    private readonly platform: Platform,
    private readonly store: WorkflowStore,
    private readonly cache: WorkflowCache,
    private readonly runner: Runner,
    private readonly defaultTimezone: string,
    /** Whether this process fires schedules (the main process; not `hamlet worker`). */
    private readonly ownsTriggers: boolean,
  ) {
    this.schedules = new Schedules(platform.clock, platform.logger, (id, node, at) => this.fireSchedule(id, node, at));
    this.leadership = ownsTriggers ? platform.leaders.of('workflow') : { isLeader: () => false };
  }

  async start(): Promise<void> {
    for (const row of await this.store.activeWorkflows()) {
      try {
        this.register(this.cache.get(row));
      } catch (err) {
        this.platform.logger.warn({ err, workflowId: row.id }, 'could not register an active workflow');
      }
    }
    this.unsubscribe = this.platform.events.subscribe<{ id: string }>(CHANGED_TOPIC, (m) => this.reload(m.id));
  }

  stop(): void {
    this.unsubscribe?.();
    for (const offs of this.subscriptions.values()) for (const off of offs) off();
    this.subscriptions.clear();
    this.schedules.stop();
  }

  /** The active version of a workflow, as this instance registered it. */
  get(id: string): PreparedWorkflow | undefined {
    return this.active.get(id);
  }

  /** Throws DomainError invalid (n8n's words) if the workflow cannot be activated. */
  validate(p: PreparedWorkflow): void {
    // As n8n: a type neither n8n nor this engine knows makes the workflow unactivatable (it still
    // imports, and a real n8n node the engine lacks fails only when it runs).
    const unknown = unknownNodeType(p.definition);
    if (unknown) throw invalid(`Unrecognized node type: ${unknown}`);
    const triggers = activatableTriggers(p.definition);
    // n8n 2.8.4 also activates a workflow whose only trigger is Execute Workflow Trigger or Error
    // Trigger (observed: engine-activate-subworkflow-only, error-trigger-manual).
    const calledByWorkflows = p.definition.nodes.some(
      (n) => !n.disabled && (triggerKind(n) === 'workflow' || triggerKind(n) === 'error'),
    );
    if (!triggers.length && !calledByWorkflows) throw invalid(NO_TRIGGER_MESSAGE);
    const tz = String(p.definition.settings?.timezone ?? this.defaultTimezone);
    for (const node of triggers) {
      for (const pattern of nodeRegistry.get(node.type)?.schedules?.(node) ?? []) {
        const problem = Schedules.check(pattern, tz);
        if (problem) throw invalid(`Node "${node.name}": ${problem}`);
      }
    }
    const conflict = this.webhooks.conflicts(
      p,
      triggers.filter((n) => triggerKind(n) === 'webhook'),
    );
    if (conflict)
      throw invalid(`The URL path that the webhook "${conflict}" uses is already taken by another active workflow`);
  }

  register(p: PreparedWorkflow): void {
    const id = p.definition.id;
    const triggers = activatableTriggers(p.definition);
    this.active.set(id, p);
    this.webhooks.add(
      id,
      triggers.filter((n) => triggerKind(n) === 'webhook'),
    );
    if (this.ownsTriggers) {
      const schedules = triggers.flatMap((n) =>
        (nodeRegistry.get(n.type)?.schedules?.(n) ?? []).map((pattern) => ({ node: n.name, pattern })),
      );
      this.schedules.set(id, schedules, String(p.definition.settings?.timezone ?? this.defaultTimezone));
      this.subscribeEvents(
        id,
        triggers.filter((n) => triggerKind(n) === 'event'),
      );
    }
  }

  /** Event triggers listen on the platform bus (a new community post, a home state change). */
  private subscribeEvents(id: string, nodes: WorkflowNode[]): void {
    for (const off of this.subscriptions.get(id) ?? []) off();
    const offs: Array<() => void> = [];
    for (const node of nodes) {
      const type = nodeRegistry.get(node.type);
      if (!type?.topic || !type.fromEvent) continue;
      offs.push(
        this.platform.events.subscribe(type.topic, async (payload) => {
          const p = this.active.get(id);
          if (!p || !this.leadership.isLeader()) return;
          const items = type.fromEvent!(payload, node);
          if (items.length)
            await this.runner.enqueue({ prepared: p, mode: 'trigger', start: { node: node.name, items } });
        }),
      );
    }
    this.subscriptions.set(id, offs);
  }

  unregister(id: string): void {
    this.active.delete(id);
    for (const off of this.subscriptions.get(id) ?? []) off();
    this.subscriptions.delete(id);
    this.webhooks.remove(id);
    this.schedules.remove(id);
  }

  /** After a world restore: exactly the restored active workflows, their schedules armed afresh. */
  async reloadAll(): Promise<void> {
    const rows = await this.store.activeWorkflows();
    for (const id of [...this.active.keys()]) this.unregister(id);
    for (const row of rows) {
      this.cache.drop(row.id);
      try {
        this.register(this.cache.get(row));
      } catch (err) {
        this.platform.logger.warn({ err, workflowId: row.id }, 'could not register an active workflow');
      }
    }
  }

  /** Tells every instance (this one included) to re-read a workflow. */
  async changed(id: string): Promise<void> {
    await this.reload(id);
    await this.platform.events.publish(CHANGED_TOPIC, { id });
  }

  private async reload(id: string): Promise<void> {
    const row = await this.store.getWorkflow(id);
    this.cache.drop(id);
    if (!row || row.active !== 1) return this.unregister(id);
    const current = this.active.get(id);
    if (current && current.definition.versionId === row.version_id) return;
    this.register(this.cache.get(row));
  }

  private async fireSchedule(id: string, node: string, at: Date): Promise<void> {
    const p = this.active.get(id);
    if (!p || !this.leadership.isLeader()) return;
    const tz = String(p.definition.settings?.timezone ?? this.defaultTimezone);
    await this.runner.enqueue({ prepared: p, mode: 'trigger', start: { node, items: [scheduleItem(at, tz)] } });
  }
}
