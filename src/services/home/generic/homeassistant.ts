// The `homeassistant` domain's services: turn_on/turn_off/toggle across domains (HA calls
// each target's own domain service, e.g. cover.open_cover), update_entity, and the reloads.
// The reloads re-read the house file where Hamlet keeps that part (core config, automations)
// and are accepted as no-ops for what has nothing to reload, as HA does for an integration
// without YAML.
import { float, str } from '../core/fields.js';
import type { Home, LocationConfig } from '../core/home.js';
import type { ServiceContext, ServiceSpec } from '../core/services.js';

/** The service each domain uses for a generic turn_on/turn_off/toggle (HA's table). */
const DOMAIN_SERVICE: Record<string, Record<string, string>> = {
  cover: { turn_on: 'open_cover', turn_off: 'close_cover', toggle: 'toggle' },
  lock: { turn_on: 'unlock', turn_off: 'lock' },
  valve: { turn_on: 'open_valve', turn_off: 'close_valve', toggle: 'toggle' },
};

async function generic(service: 'turn_on' | 'turn_off' | 'toggle', ctx: ServiceContext): Promise<void> {
  const byDomain = new Map<string, string[]>();
  for (const id of ctx.entityIds ?? []) {
    const domain = id.slice(0, id.indexOf('.'));
    if (!byDomain.has(domain)) byDomain.set(domain, []);
    byDomain.get(domain)!.push(id);
  }
  for (const [domain, ids] of byDomain) {
    const target = DOMAIN_SERVICE[domain]?.[service] ?? service;
    // HA skips entities whose domain has no such service (a sensor) with a warning.
    if (domain === 'homeassistant' || !ctx.home.hasService(domain, target)) {
      ctx.home.logger.warn(
        { domain, service: target },
        'home: homeassistant.%s skipped entities whose domain lacks the service',
        service,
      );
      continue;
    }
    await ctx.home.callService(domain, target, { entity_id: ids }, { context: ctx.context });
  }
}

const targeted = (service: 'turn_on' | 'turn_off' | 'toggle', name: string, description: string): ServiceSpec => ({
  service,
  name,
  description,
  fields: {},
  targets: true,
  run: (_d, ctx) => generic(service, ctx),
});

const noop = (
  service: string,
  name: string,
  description: string,
  fields: ServiceSpec['fields'] = {},
  fire?: string,
): ServiceSpec => ({
  service,
  name,
  description,
  fields,
  run: (_d, ctx) => {
    if (fire) ctx.home.fire(fire, {}, ctx.context);
  },
});

export interface HomeassistantServiceDeps {
  /** The house file's location section, re-read (reload_core_config). */
  readLocation(): LocationConfig;
}

export function registerHomeassistantServices(home: Home, deps: HomeassistantServiceDeps): void {
  const reloadCore = (ctx: ServiceContext) => {
    Object.assign(home.location, deps.readLocation());
    home.fire('core_config_updated', {}, ctx.context);
  };
  const services: ServiceSpec[] = [
    targeted('turn_on', 'Generic turn on', 'Generic action to turn devices on under any domain.'),
    targeted('turn_off', 'Generic turn off', 'Generic action to turn devices off under any domain.'),
    targeted('toggle', 'Generic toggle', 'Generic action to toggle devices on/off under any domain.'),
    {
      service: 'update_entity',
      name: 'Update entity',
      description: 'Forces one or more entities to update their data.',
      fields: {},
      targets: true,
      run: () => undefined,
    },
    {
      service: 'reload_core_config',
      name: 'Reload core configuration',
      description: 'Reloads the core configuration from the YAML-configuration.',
      fields: {},
      run: (_d, ctx) => reloadCore(ctx),
    },
    {
      service: 'reload_all',
      name: 'Reload all',
      description: 'Reloads all YAML configuration that can be reloaded.',
      fields: {},
      async run(_d, ctx) {
        reloadCore(ctx);
        if (home.hasService('automation', 'reload'))
          await home.callService('automation', 'reload', {}, { context: ctx.context });
      },
    },
    {
      service: 'set_location',
      name: 'Set location',
      description: 'Updates the Home Assistant location.',
      fields: {
        latitude: { ...float({ min: -90, max: 90 }), required: true },
        longitude: { ...float({ min: -180, max: 180 }), required: true },
        elevation: float(),
      },
      run: (d, ctx) => {
        Object.assign(home.location, {
          latitude: d.latitude,
          longitude: d.longitude,
          ...(d.elevation !== undefined ? { elevation: d.elevation } : {}),
        });
        home.fire('core_config_updated', {}, ctx.context);
      },
    },
    noop(
      'reload_custom_templates',
      'Reload custom Jinja2 templates',
      'Reloads Jinja2 templates found in the custom_templates folder.',
    ),
    noop('reload_config_entry', 'Reload config entry', 'Reloads the specified config entry.', { entry_id: str() }),
    noop('save_persistent_states', 'Save persistent states', 'Saves the persistent states immediately.'),
    noop('check_config', 'Check configuration', 'Checks the Home Assistant YAML-configuration files for errors.'),
  ];
  for (const s of services) home.registerService('homeassistant', s);
}
