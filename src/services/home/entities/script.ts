// script: a named action sequence from the house file (HA's `script:` section). Each script
// is an entity (on while running) and a service `script.<id>` that runs it and waits;
// script.turn_on starts scripts without waiting, script.turn_off stops them. Mode single:
// a script already running is not started again (HA logs "Already running").
import { ConfigError } from '../../../platform/settings.js';
import { compileSequence, StopRun, type Step } from '../automations/actions/index.js';
import type { Context } from '../core/context.js';
import { any, object } from '../core/fields.js';
import type { Home } from '../core/home.js';
import { isoUs } from '../core/time.js';
import type { DeviceConfig } from '../core/registry/config.js';
import { memory, type DomainModule } from './domain.js';

interface ScriptMemory {
  sequence?: Step;
  running?: AbortController;
}

const mem = (home: Home, entityId: string) => memory(home, entityId) as ScriptMemory;

/** Runs a script to its end; the states it changes carry `context` (the caller's, as in HA). */
async function runScript(
  home: Home,
  entityId: string,
  variables: Record<string, unknown>,
  context: Context,
): Promise<void> {
  const m = mem(home, entityId);
  const s = home.states.get(entityId);
  if (!m.sequence || !s) return;
  if (m.running) {
    home.logger.warn({ entity_id: entityId }, 'home: script already running');
    return;
  }
  const abort = (m.running = new AbortController());
  home.states.set(entityId, 'on', { ...s.attributes, last_triggered: isoUs(home.nowUs()), current: 1 }, context);
  home.fire('script_started', { name: s.name, entity_id: entityId }, context);
  try {
    await m.sequence({ home, context, vars: { ...variables, this: s.toJSON() }, signal: abort.signal });
  } catch (err) {
    if (!(err instanceof StopRun) && !abort.signal.aborted) throw err;
  } finally {
    m.running = undefined;
    const now = home.states.get(entityId);
    if (now) home.states.set(entityId, 'off', { ...now.attributes, current: 0 }, context);
  }
}

function compile(device: DeviceConfig): Step {
  try {
    return compileSequence(device.sequence);
  } catch (err) {
    throw new ConfigError([`script.${device.id}: ${(err as Error).message}`]);
  }
}

export const script: DomainModule = {
  domain: 'script',
  services: [
    {
      service: 'turn_on',
      name: 'Turn on',
      description: 'Runs the sequence of actions defined in a script.',
      fields: { variables: object() },
      plan: (s, d, ctx) => ({
        then: () =>
          void runScript(ctx.home, s.entity_id, (d.variables as Record<string, unknown>) ?? {}, ctx.context).catch(
            (err) => ctx.home.logger.warn({ err, entity_id: s.entity_id }, 'home: script failed'),
          ),
      }),
    },
    {
      service: 'turn_off',
      name: 'Turn off',
      description: 'Stops a running script.',
      fields: {},
      plan: (s, _d, ctx) => ({ then: () => mem(ctx.home, s.entity_id).running?.abort(new StopRun()) }),
    },
    {
      service: 'toggle',
      name: 'Toggle',
      description: 'Starts a script if it is not running, stops it otherwise.',
      fields: {},
      plan: (s, _d, ctx) => ({
        then: () => {
          const m = mem(ctx.home, s.entity_id);
          if (m.running) m.running.abort(new StopRun());
          else
            void runScript(ctx.home, s.entity_id, {}, ctx.context).catch((err) =>
              ctx.home.logger.warn({ err, entity_id: s.entity_id }, 'home: script failed'),
            );
        },
      }),
    },
  ],
  setup(device, home) {
    const entityId = `script.${device.id}`;
    mem(home, entityId).sequence = compile(device);
    const declared = (typeof device.fields === 'object' && device.fields !== null ? device.fields : {}) as Record<
      string,
      Record<string, unknown>
    >;
    home.registerService('script', {
      service: device.id,
      name: device.name,
      description: typeof device.description === 'string' ? device.description : '',
      fields: Object.fromEntries(
        Object.entries(declared).map(([k, f]) => [
          k,
          {
            ...any(),
            ...(f?.required ? { required: true } : {}),
            description: typeof f?.description === 'string' ? f.description : undefined,
          },
        ]),
      ),
      allowExtra: true,
      run: (d, ctx) => runScript(ctx.home, entityId, d, ctx.context),
    });
    const mode = typeof device.mode === 'string' ? device.mode : 'single';
    // A run cut short by a stop or a crash does not go on after a restart (HA's scripts neither).
    const stored = home.states.get(entityId);
    if (stored?.state === 'on') home.states.set(entityId, 'off', { ...stored.attributes, current: 0 }, home.context());
    return {
      state: 'off',
      attributes: {
        last_triggered: null,
        mode,
        current: 0,
        ...(typeof device.icon === 'string' ? { icon: device.icon } : {}),
        friendly_name: device.name,
      },
    };
  },
};
