// Automations: configs from the house file, overridden by those saved through the config API
// (stored in home_automations). Each is an `automation.<slug>` entity (on/off) whose
// triggers start runs; conditions gate a run; actions run in the run's own context, whose
// parent is the triggering context. Modes: single, restart, queued, parallel.
//
// In a cluster every instance installs every automation, but a trigger whose input every
// instance sees (a state change, the time) starts runs only on the home's leader
// (platform/leader.ts), so an automation fires once; a trigger that arrives at one instance
// (a webhook, an event fired there) starts the run there. Config saves and reloads are
// announced on the platform bus so every instance installs the same automations, and an
// automation turned on or off anywhere is turned on or off everywhere. Events fired on another
// instance reach this one's bus too (cluster/replication.ts), marked replicated: an event
// trigger leaves them to the instance they were fired on.
import type { EventBus } from '../../../platform/events.js';
import type { Leadership } from '../../../platform/leader.js';
import type { Topic } from '../../../platform/topics.js';
import { HomeError } from '../core/errors.js';
import type { Context } from '../core/context.js';
import type { Home } from '../core/home.js';
import { slugify, type State } from '../core/state.js';
import { isoUs } from '../core/time.js';
import { bool } from '../core/fields.js';
import type { ServiceSpec } from '../core/services.js';
import type { AutomationStore } from '../store/automation-store.js';
import { compileSequence, StopRun, type Step } from './actions/index.js';
import { compileConditions, type Test } from './conditions/index.js';
import { attachTriggers, ConfigProblem, normalizeTriggers, type NormalizedTrigger } from './triggers/index.js';

const MODES = ['single', 'restart', 'queued', 'parallel'];

/** Triggers every instance of a cluster hears alike: only the leader acts on them. */
const HEARD_EVERYWHERE = new Set(['state', 'numeric_state', 'template', 'time', 'time_pattern']);
const heardEverywhere = (t: NormalizedTrigger) =>
  HEARD_EVERYWHERE.has(t.platform) ||
  (t.platform === 'event' && (t.config.event_type as string[]).includes('state_changed'));

/** An automation saved or removed (`id`), or all reloaded, on instance `origin`. */
const CHANGED_TOPIC: Topic<{ id?: string; origin: string }> = 'home.automations.changed';

/** How the automations meet the other instances of a cluster (alone: leader of itself, no bus). */
export interface AutomationCluster {
  leadership: Leadership;
  events?: EventBus;
  instanceId: string;
}

interface Compiled {
  triggers: NormalizedTrigger[];
  conditions: Test[];
  actions: Step;
  mode: string;
  max: number;
}

interface Automation {
  id: string;
  config: Record<string, unknown>;
  entityId: string;
  alias: string;
  compiled: Compiled;
  detach?: () => void;
  runs: Set<AbortController>;
  queue: Promise<void>;
  queued: number;
  lastTriggered: string | null;
}

/** Either spelling: triggers/trigger, conditions/condition, actions/action. */
function compileAutomation(c: Record<string, unknown>): Compiled {
  const mode = c.mode === undefined ? 'single' : String(c.mode);
  if (!MODES.includes(mode))
    throw new ConfigProblem(`value must be one of ${MODES.join(', ')} for dictionary value @ data['mode']`);
  const triggersRaw = c.triggers ?? c.trigger;
  if (triggersRaw === undefined) throw new ConfigProblem("required key not provided @ data['triggers']");
  const actionsRaw = c.actions ?? c.action;
  if (actionsRaw === undefined) throw new ConfigProblem("required key not provided @ data['actions']");
  return {
    triggers: normalizeTriggers(triggersRaw),
    conditions: compileConditions(c.conditions ?? c.condition),
    actions: compileSequence(actionsRaw),
    mode,
    max: typeof c.max === 'number' && c.max > 0 ? c.max : 10,
  };
}

export class Automations {
  private readonly byId = new Map<string, Automation>();
  private readonly fileIds = new Set<string>();
  private readonly unlisten: Array<() => void> = [];
  /** Set while reloading after a world restore: install() writes no entity state. */
  private quiet = false;

  constructor(
    private readonly home: Home,
    private readonly store: AutomationStore,
    private readonly loadFile: () => Record<string, unknown>[],
    private readonly cluster: AutomationCluster = { leadership: { isLeader: () => true }, instanceId: 'alone' },
  ) {}

  async start(): Promise<void> {
    this.registerServices();
    await this.loadAll();
    const { events, instanceId } = this.cluster;
    if (events) {
      this.unlisten.push(
        events.subscribe(CHANGED_TOPIC, (m) => {
          if (m.origin === instanceId) return;
          const done = m.id === undefined ? this.reloadAll(this.home.context()) : this.resync(m.id);
          return done.catch((err) =>
            this.home.logger.error(
              { err, automation: m.id },
              'home: applying an automation change from another instance failed',
            ),
          );
        }),
        // Turned on or off on another instance: its triggers follow here (the leader's are the ones that fire).
        this.home.bus.listen('state_changed', (e) => {
          const s = e.data.new_state as State | null;
          if (!e.replicated || !s || s.domain !== 'automation') return;
          const a = this.byEntity(s.entity_id);
          if (a && s.state === 'on') this.enable(a);
          else if (a && s.state === 'off') this.disable(a);
        }),
      );
    }
  }

  /** Tells the other instances to install the same automations. */
  private announce(id?: string): void {
    this.cluster.events
      ?.publish(CHANGED_TOPIC, { id, origin: this.cluster.instanceId })
      .catch((err) =>
        this.home.logger.warn(
          { err, automation: id },
          'home: announcing an automation change failed; other instances keep the old one',
        ),
      );
  }

  /** The configs in force: the house file's, overridden by those saved through the config API. */
  private async loadConfigs(): Promise<Map<string, Record<string, unknown>>> {
    const configs = new Map<string, Record<string, unknown>>();
    this.fileIds.clear();
    for (const c of this.loadFile()) {
      const id =
        typeof c.id === 'string' || typeof c.id === 'number'
          ? String(c.id)
          : slugify(String(c.alias ?? `automation_${configs.size + 1}`));
      configs.set(id, { ...c, id });
      this.fileIds.add(id);
    }
    for (const o of await this.store.overrides()) {
      if (o.config === null) configs.delete(o.id);
      else configs.set(o.id, JSON.parse(o.config));
    }
    return configs;
  }

  private async loadAll() {
    for (const [id, c] of await this.loadConfigs()) this.install(id, c);
  }

  /** Installs one automation as stored now (another instance saved or removed it). */
  private async resync(id: string): Promise<void> {
    const config = (await this.loadConfigs()).get(id);
    const current = this.byId.get(id);
    if (current && config && JSON.stringify(current.config) === JSON.stringify(config)) return;
    // Its entity's removal reaches this instance from the one that removed it.
    this.uninstall(id, false);
    if (config) this.install(id, config);
  }

  private byEntity(entityId: string): Automation | undefined {
    for (const a of this.byId.values()) if (a.entityId === entityId) return a;
    return undefined;
  }

  private install(id: string, config: Record<string, unknown>) {
    let compiled: Compiled;
    try {
      compiled = compileAutomation(config);
    } catch (err) {
      this.home.logger.error({ automation: id, err: (err as Error).message }, 'home: invalid automation skipped');
      return;
    }
    const alias = typeof config.alias === 'string' ? config.alias : id;
    const entityId = this.entityIdFor(id, alias);
    const a: Automation = {
      id,
      config,
      entityId,
      alias,
      compiled,
      runs: new Set(),
      queue: Promise.resolve(),
      queued: 0,
      lastTriggered: null,
    };
    const previous = this.home.states.get(entityId);
    if (previous) a.lastTriggered = (previous.attributes.last_triggered as string | null) ?? null;
    this.byId.set(id, a);
    // A restart keeps an automation that was turned off, off (its entity state is stored).
    const enabled = previous ? previous.state === 'on' : config.initial_state !== false;
    if (!this.quiet) this.writeEntity(a, enabled ? 'on' : 'off', this.home.context());
    if (enabled) this.enable(a);
  }

  private entityIdFor(id: string, alias: string): string {
    for (const a of this.byId.values()) if (a.id === id) return a.entityId;
    const base = `automation.${slugify(alias)}`;
    const taken = new Set([...this.byId.values()].map((a) => a.entityId));
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
    return candidate;
  }

  private writeEntity(a: Automation, state: string, context: Context) {
    this.home.states.set(
      a.entityId,
      state,
      {
        id: a.id,
        last_triggered: a.lastTriggered,
        mode: a.compiled.mode,
        current: a.runs.size,
        ...(a.compiled.mode !== 'single' ? { max: a.compiled.max } : {}),
        friendly_name: a.alias,
      },
      context,
    );
  }

  private enable(a: Automation) {
    if (a.detach) return;
    const leaderOnly = new Set(a.compiled.triggers.filter(heardEverywhere).map((t) => t.idx));
    const { leadership } = this.cluster;
    try {
      a.detach = attachTriggers(this.home, a.compiled.triggers, (vars, ctx, replicated) => {
        if (leaderOnly.has(String(vars.idx))) {
          if (!leadership.isLeader()) return;
        } else if (replicated) return; // the instance it was fired on runs it
        this.trigger(a, vars, ctx, false);
      });
    } catch (err) {
      this.home.logger.error(
        { automation: a.id, err: (err as Error).message },
        'home: automation triggers could not be attached',
      );
    }
  }

  private disable(a: Automation) {
    a.detach?.();
    a.detach = undefined;
    for (const r of a.runs) r.abort(new StopRun());
  }

  /** Starts a run (subject to conditions unless skipped, and to the mode). */
  trigger(
    a: Automation,
    triggerVars: Record<string, unknown>,
    triggerContext: Context | undefined,
    skipCondition: boolean,
  ): void {
    const vars: Record<string, unknown> = { this: this.home.states.get(a.entityId), trigger: triggerVars };
    if (!skipCondition && !a.compiled.conditions.every((t) => t(this.home, vars))) return;
    const mode = a.compiled.mode;
    if (mode === 'single' && a.runs.size > 0) {
      this.home.logger.warn({ automation: a.id }, 'home: automation already running');
      return;
    }
    if ((mode === 'parallel' && a.runs.size >= a.compiled.max) || (mode === 'queued' && a.queued >= a.compiled.max))
      return;
    if (mode === 'restart') for (const r of a.runs) r.abort(new StopRun());
    const start = () => this.run(a, vars, triggerContext);
    if (mode === 'queued') {
      a.queued++;
      a.queue = a.queue.then(start).finally(() => void a.queued--);
    } else void start();
  }

  private async run(a: Automation, vars: Record<string, unknown>, triggerContext: Context | undefined): Promise<void> {
    const context = this.home.context(null, triggerContext?.id ?? null);
    const controller = new AbortController();
    a.runs.add(controller);
    a.lastTriggered = isoUs(this.home.nowUs());
    const source = String((vars.trigger as Record<string, unknown>)?.description ?? 'action');
    this.home.fire('automation_triggered', { name: a.alias, entity_id: a.entityId, source }, context);
    this.writeEntity(a, this.home.states.get(a.entityId)?.state ?? 'on', context);
    try {
      await a.compiled.actions({ home: this.home, context, vars, signal: controller.signal });
    } catch (err) {
      if (!(err instanceof StopRun))
        this.home.logger.warn(
          { automation: a.id, err: err instanceof HomeError ? err.message : err },
          'home: automation action failed',
        );
    } finally {
      a.runs.delete(controller);
      const s = this.home.states.get(a.entityId);
      if (s && this.byId.get(a.id) === a) this.writeEntity(a, s.state, context);
    }
  }

  getConfig(id: string): Record<string, unknown> | undefined {
    return this.byId.get(id)?.config;
  }

  /** Saves (creates or replaces) an automation; returns a problem text when the config is invalid. */
  async save(id: string, config: Record<string, unknown>): Promise<string | undefined> {
    const c = { ...config, id };
    try {
      compileAutomation(c);
    } catch (err) {
      return (err as Error).message;
    }
    await this.store.put(id, JSON.stringify(c), new Date(this.home.clock.ms()).toISOString());
    this.uninstall(id, false);
    this.install(id, c);
    this.announce(id);
    return undefined;
  }

  async remove(id: string): Promise<boolean> {
    if (!this.byId.has(id)) return false;
    await this.store.put(id, null, new Date(this.home.clock.ms()).toISOString());
    this.uninstall(id, true);
    this.announce(id);
    return true;
  }

  private uninstall(id: string, removeEntity: boolean) {
    const a = this.byId.get(id);
    if (!a) return;
    this.disable(a);
    this.byId.delete(id);
    if (removeEntity) this.home.states.remove(a.entityId, this.home.context());
  }

  /** WS validate_config: {triggers?, conditions?, actions?} each {valid, error}. */
  validateParts(msg: Record<string, unknown>): Record<string, { valid: boolean; error: string | null }> {
    const out: Record<string, { valid: boolean; error: string | null }> = {};
    const check = (key: string, fn: () => unknown) => {
      try {
        fn();
        out[key] = { valid: true, error: null };
      } catch (err) {
        out[key] = { valid: false, error: (err as Error).message };
      }
    };
    if (msg.triggers !== undefined || msg.trigger !== undefined)
      check(msg.triggers !== undefined ? 'triggers' : 'trigger', () => normalizeTriggers(msg.triggers ?? msg.trigger));
    if (msg.conditions !== undefined || msg.condition !== undefined)
      check(msg.conditions !== undefined ? 'conditions' : 'condition', () =>
        compileConditions(msg.conditions ?? msg.condition),
      );
    if (msg.actions !== undefined || msg.action !== undefined)
      check(msg.actions !== undefined ? 'actions' : 'action', () => compileSequence(msg.actions ?? msg.action));
    return out;
  }

  private forEntity(s: State): Automation {
    const a = this.byEntity(s.entity_id);
    if (!a) throw new HomeError('not_found', `Entity ${s.entity_id} not found.`);
    return a;
  }

  private registerServices() {
    const onOff = (service: string, next: (s: State) => 'on' | 'off'): ServiceSpec => ({
      service,
      fields: service === 'turn_off' ? { stop_actions: bool() } : {},
      plan: (s: State, d: Record<string, unknown>) => {
        const a = this.forEntity(s);
        const state = next(s);
        return {
          state,
          attributes: s.attributes,
          then: () => {
            if (state === 'on') this.enable(a);
            else if (d.stop_actions !== false) this.disable(a);
            else {
              a.detach?.();
              a.detach = undefined;
            }
          },
        };
      },
    });
    this.home.registerService(
      'automation',
      onOff('turn_on', () => 'on'),
    );
    this.home.registerService(
      'automation',
      onOff('turn_off', () => 'off'),
    );
    this.home.registerService(
      'automation',
      onOff('toggle', (s) => (s.state === 'on' ? 'off' : 'on')),
    );
    this.home.registerService('automation', {
      service: 'trigger',
      fields: { skip_condition: bool() },
      plan: (s, d, ctx) => {
        const a = this.forEntity(s);
        return {
          then: () =>
            this.trigger(a, { platform: null, description: 'trigger action' }, ctx.context, d.skip_condition !== false),
        };
      },
    });
    this.home.registerService('automation', {
      service: 'reload',
      fields: {},
      run: async (_d, ctx) => {
        await this.reloadAll(ctx.context);
        this.home.fire('automation_reloaded', {}, ctx.context);
        this.announce();
      },
    });
  }

  private async reloadAll(context: Context): Promise<void> {
    for (const id of [...this.byId.keys()]) this.uninstall(id, false);
    const before = new Set(this.home.states.entityIds('automation'));
    await this.loadAll();
    const now = new Set([...this.byId.values()].map((a) => a.entityId));
    for (const id of before) if (!now.has(id)) this.home.states.remove(id, context);
  }

  stop(): void {
    for (const off of this.unlisten.splice(0)) off();
    for (const a of this.byId.values()) this.disable(a);
  }

  /**
   * After a world restore: the automations the restored rows hold, armed again. Nothing is
   * written: their entity states came back with the rows (a write would change the restored
   * world), and an empty world (reset) stays empty until something happens in it.
   */
  async reloadQuietly(): Promise<void> {
    for (const id of [...this.byId.keys()]) this.uninstall(id, false);
    this.quiet = true;
    try {
      await this.loadAll();
    } finally {
      this.quiet = false;
    }
  }
}
