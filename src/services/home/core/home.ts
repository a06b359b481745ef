// The home: HA's `hass` object. It holds the event bus, the state machine, the service
// registry and the location config, and runs service calls with HA's check order:
// service exists → fields → every target exists → plan all → apply all.
import type { Clock } from '../../../platform/clock.js';
import type { Logger } from '../../../platform/logger.js';
import { HomeBus, type HomeEvent } from './bus.js';
import { newContext, type Context } from './context.js';
import { notFound, validation, invalid } from './errors.js';
import { describeFields, parseFields } from './fields.js';
import { Registry } from './registry/registry.js';
import { Scheduler } from './scheduler.js';
import type { EntityDriver, Planned, ServiceContext, ServiceSpec } from './services.js';
import type { State } from './state.js';
import { StateMachine, type AttributeLimits } from './states.js';
import { nowUs } from './time.js';

export interface LocationConfig {
  location_name: string;
  latitude: number;
  longitude: number;
  elevation: number;
  time_zone: string;
  currency: string;
  country: string | null;
  language: string;
  unit_system: 'metric' | 'us_customary';
}

export const HA_VERSION = '2026.1.0';

export interface CallOptions {
  target?: unknown;
  context: Context;
  returnResponse?: boolean;
}

export interface CallResult {
  changed: State[];
  response?: unknown;
}

export interface WebhookRequest {
  method: string;
  json: unknown;
  data: Record<string, string>;
  query: Record<string, unknown>;
  headers: Record<string, unknown>;
  local: boolean;
}

export interface WebhookHandler {
  allowedMethods: string[];
  localOnly: boolean;
  handle(request: WebhookRequest): void;
}

const TARGET_KEYS = ['entity_id', 'device_id', 'area_id', 'floor_id', 'label_id'];

export class Home {
  readonly bus: HomeBus;
  readonly states: StateMachine;
  readonly scheduler: Scheduler;
  readonly components = new Set<string>([
    'api',
    'websocket_api',
    'history',
    'logbook',
    'recorder',
    'webhook',
    'automation',
  ]);
  private readonly services = new Map<string, Map<string, ServiceSpec & { domain: string }>>();
  private readonly drivers = new Map<string, EntityDriver>();
  /** Inbound webhooks by id (registered by webhook triggers, served at /api/webhook/<id>). */
  readonly webhooks = new Map<string, WebhookHandler>();
  /** Per-entity settings from the house config that are not attributes (e.g. a cover's speed). */
  readonly entityOptions = new Map<string, Record<string, unknown>>();
  /** Floors, areas, labels, devices and entities of the house file (filled at start). */
  readonly registry = new Registry();

  constructor(
    readonly clock: Clock,
    readonly logger: Logger,
    readonly location: LocationConfig,
    options: { attributeLimits?: AttributeLimits } = {},
  ) {
    this.bus = new HomeBus(logger);
    this.states = new StateMachine(this.bus, clock, options.attributeLimits);
    this.scheduler = new Scheduler(clock);
  }

  nowUs(): number {
    return nowUs(this.clock);
  }

  context(userId: string | null = null, parentId: string | null = null): Context {
    return newContext(this.clock, userId, parentId);
  }

  fire(
    eventType: string,
    data: Record<string, unknown>,
    context: Context,
    origin: 'LOCAL' | 'REMOTE' = 'LOCAL',
  ): HomeEvent {
    return this.bus.fire(eventType, data, context, this.nowUs(), origin);
  }

  registerService(domain: string, spec: ServiceSpec): void {
    let d = this.services.get(domain);
    if (!d) this.services.set(domain, (d = new Map()));
    const isNew = !d.has(spec.service);
    d.set(spec.service, { ...spec, domain });
    if (isNew) this.fire('service_registered', { domain, service: spec.service }, this.context());
    if (!this.components.has(domain)) {
      this.components.add(domain);
      this.fire('component_loaded', { component: domain }, this.context());
    }
  }

  removeService(domain: string, service: string): void {
    if (this.services.get(domain)?.delete(service)) this.fire('service_removed', { domain, service }, this.context());
  }

  hasService(domain: string, service: string): boolean {
    return !!this.services.get(domain)?.has(service);
  }

  setDriver(entityId: string, driver: EntityDriver | undefined): void {
    if (driver) this.drivers.set(entityId, driver);
    else this.drivers.delete(entityId);
  }

  /** `get_services` shape: {domain: {service: {name, description, fields, target?, response?}}}. */
  describeServices(): Record<string, Record<string, unknown>> {
    const out: Record<string, Record<string, unknown>> = {};
    for (const [domain, map] of this.services) {
      out[domain] = Object.fromEntries(
        [...map.values()].map((s) => [
          s.service,
          {
            name: s.name ?? s.service.replace(/_/g, ' ').replace(/^\w/, (c) => c.toUpperCase()),
            description: s.description ?? '',
            fields: describeFields(s.fields),
            ...(s.plan
              ? { target: { entity: [{ domain: [domain] }] } }
              : s.targets
                ? { target: { entity: [{}] } }
                : {}),
            ...(s.response ? { response: { optional: s.response === 'optional' } } : {}),
          },
        ]),
      );
    }
    return out;
  }

  /** Runs a service call; throws a HomeError (see errors.ts) before changing anything when the call is bad. */
  async callService(
    domain: string,
    service: string,
    rawData: Record<string, unknown>,
    opts: CallOptions,
  ): Promise<CallResult> {
    const spec = this.services.get(domain)?.get(service);
    if (!spec) throw notFound(`Service ${domain}.${service} not found.`);
    if (opts.returnResponse && !spec.response)
      throw validation('Service does not support responses. Remove return_response from request.');
    if (!opts.returnResponse && spec.response === 'only') {
      throw validation(
        'Service call requires responses but caller did not ask for responses. Add ?return_response to query parameters.',
      );
    }

    // Target keys select entities for entity services; other services declare what they take.
    const takesTargets = !!spec.plan || !!spec.targets;
    const data = takesTargets
      ? Object.fromEntries(Object.entries(rawData).filter(([k]) => !TARGET_KEYS.includes(k)))
      : rawData;
    const parsed = spec.allowExtra
      ? {
          ...data,
          ...parseFields(spec.fields, Object.fromEntries(Object.entries(data).filter(([k]) => k in spec.fields))),
        }
      : parseFields(spec.fields, data);
    spec.check?.(parsed);

    const ctx: ServiceContext = { home: this, context: opts.context, domain, service };
    if (spec.targets) ctx.entityIds = this.resolveTargetIds(rawData, opts.target).map((s) => s.entity_id);
    const changed: State[] = [];
    const stop = this.bus.listen('state_changed', (e) => {
      if (e.context.id === opts.context.id && e.data.new_state) changed.push(e.data.new_state as State);
    });
    try {
      let response: unknown;
      if (spec.plan) {
        const targets = this.resolveTargetIds(rawData, opts.target, domain);
        const plans: Array<[State, Planned]> = [];
        for (const entity of targets) {
          if (spec.feature && !(Number(entity.attributes.supported_features ?? 0) & spec.feature)) {
            throw validation(`Entity ${entity.entity_id} does not support action ${domain}.${service}.`);
          }
          const p = spec.plan(entity, parsed, ctx);
          if (p) plans.push([entity, p]);
        }
        this.fire('call_service', { domain, service, service_data: rawData }, opts.context);
        for (const [entity, p] of plans) {
          const driver = this.drivers.get(entity.entity_id);
          const show = p.state === undefined ? false : driver ? driver.command(service, parsed, p, entity) : true;
          if (show) this.states.set(entity.entity_id, p.state!, p.attributes ?? entity.attributes, opts.context);
          p.then?.();
        }
      } else {
        this.fire('call_service', { domain, service, service_data: rawData }, opts.context);
        response = await spec.run!(parsed, ctx);
      }
      return { changed, ...(opts.returnResponse ? { response: response ?? {} } : {}) };
    } finally {
      stop();
    }
  }

  /**
   * The entities a call targets: entity ids from `target` and from the data, merged (every one
   * must exist, in `domain` when given), plus the entities of the named areas, devices, floors
   * and labels (those of `domain` when given; an unknown area, device, floor or label is a 404).
   */
  resolveTargetIds(data: Record<string, unknown>, target: unknown, domain?: string): State[] {
    const explicit: string[] = [];
    const expanded: string[] = [];
    const t = target === undefined || target === null ? {} : target;
    if (typeof t !== 'object' || Array.isArray(t)) throw invalid('target', 'expected dict');
    const listOf = (value: unknown, field: string): string[] => {
      if (value === undefined || value === null) return [];
      const list = typeof value === 'string' ? value.split(',') : Array.isArray(value) ? value : undefined;
      if (!list || list.some((x) => typeof x !== 'string'))
        throw invalid(field, `expected a list of ${field.replace(/^target\./, '').replace(/_id$/, '')} ids`);
      return (list as string[]).map((x) => x.trim()).filter(Boolean);
    };
    for (const [source, prefix] of [
      [data, ''],
      [t as Record<string, unknown>, 'target.'],
    ] as const) {
      for (const raw of listOf(source.entity_id, `${prefix}entity_id`)) {
        const id = raw.toLowerCase();
        if (id === 'all' || id === '*')
          expanded.push(...(domain ? this.states.entityIds(domain) : [...this.states.all()].map((s) => s.entity_id)));
        else explicit.push(id);
      }
      for (const key of ['area_id', 'device_id', 'floor_id', 'label_id'] as const) {
        for (const id of listOf(source[key], `${prefix}${key}`)) expanded.push(...this.expandTarget(key, id));
      }
    }
    const out: State[] = [];
    const seen = new Set<string>();
    for (const id of explicit) {
      if (seen.has(id)) continue;
      seen.add(id);
      const s = this.states.get(id);
      // An entity of another domain is as unknown to this service as a missing one (§13).
      if (!s || (domain && s.domain !== domain)) throw notFound(`Entity ${id} not found.`);
      out.push(s);
    }
    for (const id of expanded) {
      if (seen.has(id)) continue;
      seen.add(id);
      const s = this.states.get(id);
      if (s && (!domain || s.domain === domain)) out.push(s);
    }
    return out;
  }

  private expandTarget(key: 'area_id' | 'device_id' | 'floor_id' | 'label_id', id: string): string[] {
    const r = this.registry;
    const [has, expand, what] = {
      area_id: [r.areas.has(id), () => r.entitiesOfArea(id), 'Area'],
      device_id: [r.devices.has(id), () => r.entitiesOfDevice(id), 'Device'],
      floor_id: [r.floors.has(id), () => r.entitiesOfFloor(id), 'Floor'],
      label_id: [r.labels.has(id), () => r.entitiesOfLabel(id), 'Label'],
    }[key] as [boolean, () => string[], string];
    if (!has) throw notFound(`${what} ${id} not found.`);
    return expand();
  }

  /** HA's `/api/config` and `get_config`. */
  configObject(): Record<string, unknown> {
    const l = this.location;
    const metric = l.unit_system === 'metric';
    return {
      allowlist_external_dirs: [],
      allowlist_external_urls: [],
      components: [...this.components].sort(),
      config_dir: '/config',
      config_source: 'storage',
      country: l.country,
      currency: l.currency,
      debug: false,
      elevation: l.elevation,
      external_url: null,
      internal_url: null,
      language: l.language,
      latitude: l.latitude,
      location_name: l.location_name,
      longitude: l.longitude,
      radius: 100,
      recovery_mode: false,
      safe_mode: false,
      state: 'RUNNING',
      time_zone: l.time_zone,
      unit_system: metric
        ? {
            length: 'km',
            accumulated_precipitation: 'mm',
            area: 'm²',
            mass: 'g',
            pressure: 'Pa',
            temperature: '°C',
            volume: 'L',
            wind_speed: 'm/s',
          }
        : {
            length: 'mi',
            accumulated_precipitation: 'in',
            area: 'ft²',
            mass: 'lb',
            pressure: 'psi',
            temperature: '°F',
            volume: 'gal',
            wind_speed: 'mph',
          },
      version: HA_VERSION,
      whitelist_external_dirs: [],
    };
  }

  stop(): void {
    this.scheduler.stop();
  }
}
