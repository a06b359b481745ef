// The running part of the home automation service (contract 002 part A): a Home Assistant-compatible home.
// The state machine lives in memory; the database is its durable record and the recorder.
// In a cluster every instance holds the whole state machine, kept alike through the
// platform bus (cluster/replication.ts); automations fire on the leader (automations/engine.ts).
import { listen } from '../../platform/http.js';
import type { Platform } from '../../platform/service.js';
import { keyIdOfUser } from './core/context.js';
import { Automations } from './automations/engine.js';
import { replicateStates } from './cluster/replication.js';
import { Home } from './core/home.js';
import { stateFromJson, type State } from './core/state.js';
import { DOMAINS } from './entities/index.js';
import { registerHomeassistantServices } from './generic/homeassistant.js';
import { registerPersistentNotificationServices } from './generic/persistent-notification.js';
import { registerTags } from './generic/tag.js';
import { loadHouse } from './house.js';
import { ErrorLog } from './core/error-log.js';
import { createHomeApp } from './http/index.js';
import { startMqtt } from './mqtt/bridge.js';
import { registerLogbookService } from './recorder/logbook.js';
import { Persister } from './recorder/persister.js';
import { startPurging } from './recorder/purge.js';
import type { HomeSettings } from './settings.js';
import { AutomationStore } from './store/automation-store.js';
import { HomeStore } from './store/index.js';
import { homeWorldHooks } from './world.js';

export async function start(platform: Platform, settings: HomeSettings) {
  const { config, logger } = platform;
  const explicit = settings.configExplicit;
  const knownDomains = DOMAINS.map((d) => d.domain);
  const house = loadHouse(settings.configFile, explicit, knownDomains);

  const errorLog = new ErrorLog(platform.clock);
  const home = new Home(platform.clock, errorLog.recording(logger.child({ service: 'home' })), house.location, {
    attributeLimits: settings.attributeLimits,
  });
  const store = new HomeStore(platform.db);

  home.registry.replace({ ...house.registry, loadedAt: platform.clock.ms() / 1000 });
  for (const d of DOMAINS) for (const s of d.services) home.registerService(d.domain, s);
  // Listening to the other instances before reading the stored states: a write made
  // meanwhile is not missed (restore keeps whichever of the two is newer).
  const replication = replicateStates(home, platform.events, logger);
  const stored = await store.loadEntities();
  const restored = stored.map(stateFromJson).filter((s): s is State => !!s);
  if (restored.length < stored.length)
    home.logger.warn(
      { unreadable: stored.length - restored.length },
      'home: stored entity states that do not parse were left out',
    );
  home.states.restore(restored);
  // From here on every state write and recorded event is persisted.
  const persist = new Persister(store, home, logger);

  // Devices of the house config; a device already stored keeps its stored state.
  for (const device of house.devices) {
    const module = DOMAINS.find((d) => d.domain === device.domain)!;
    const initial = module.setup?.(device, home);
    const entityId = `${device.domain}.${device.id}`;
    if (initial && !home.states.get(entityId))
      home.states.set(entityId, initial.state, initial.attributes, home.context());
  }

  const automations = new Automations(
    home,
    new AutomationStore(platform.db),
    () => loadHouse(settings.configFile, explicit, knownDomains).automations,
    {
      leadership: platform.leaders.of('home'),
      events: platform.events,
      instanceId: replication.instanceId,
    },
  );
  await automations.start();
  const world = homeWorldHooks({ home, store, automations });
  const stopPurging = startPurging(home, store, settings.keepDays);
  registerLogbookService(home);
  registerHomeassistantServices(home, {
    readLocation: () => loadHouse(settings.configFile, explicit, knownDomains).location,
  });
  registerPersistentNotificationServices(home);
  const stopTags = registerTags(home);

  // A changed state (not attributes alone, not an entity appearing at start) is a line of the
  // activity feed, recorded by the instance where it happened (not by those it was replicated to).
  const stopTracing = home.bus.listen('state_changed', (e) => {
    const old = e.data.old_state as State | null;
    const next = e.data.new_state as State | null;
    if (e.replicated || !old || !next || old.state === next.state) return;
    const summary =
      next.state === 'on' || next.state === 'off'
        ? `${next.name} turned ${next.state}`
        : `${next.name} changed to ${next.state}`;
    platform.trace.event({
      service: 'home',
      summary,
      keyId: keyIdOfUser(e.context.user_id),
      detail: { entity_id: next.entity_id, state: next.state, old_state: old.state },
    });
  });

  const reserved = new Set([
    ...house.devices.map((d) => `${d.domain}.${d.id}`),
    ...home.states.entityIds('automation'),
  ]);
  const mqtt = settings.mqtt ? await startMqtt(home, settings.mqtt, reserved, platform.leaders.of('home')) : undefined;

  const checkConfig = () => {
    try {
      loadHouse(settings.configFile, explicit, knownDomains);
      return null;
    } catch (err) {
      return (err as Error).message;
    }
  };
  const app = await createHomeApp(platform, {
    home,
    keys: platform.keys,
    persist,
    store,
    automations,
    errorLog,
    checkConfig,
    websocket: { platform, maxBufferedBytes: settings.wsMaxBufferedBytes },
  });

  const url = await listen(app, config.host, settings.port);
  home.fire('homeassistant_started', {}, home.context());
  await persist.commit();

  return {
    urls: { api: url, websocket: `${url.replace(/^http/, 'ws')}/api/websocket` },
    ...world,
    async stop() {
      home.fire('homeassistant_stop', {}, home.context());
      for (const client of app.websocketServer?.clients ?? []) client.terminate();
      await app.close();
      await mqtt?.stop();
      automations.stop();
      stopPurging();
      replication.stop();
      stopTracing();
      stopTags();
      home.stop();
      await persist.close();
    },
  };
}
