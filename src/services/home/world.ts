// The home's part of the world: every home table (entities, the recorder's history, stored
// automations). After a restore the house in memory becomes what the restored rows hold.
import type { Platform } from '../../platform/service.js';
import type { Automations } from './automations/engine.js';
import type { Home } from './core/home.js';
import { stateFromJson, type State } from './core/state.js';
import type { HomeStore } from './store/home-store.js';

export function reloadHomeAfterRestore(platform: Platform, parts: { home: Home; store: HomeStore; automations: Automations }): () => void {
  return platform.world.onRestored(async () => {
    const states = (await parts.store.loadEntities()).map(stateFromJson).filter((s): s is State => !!s);
    parts.home.states.replaceAll(states);
    await parts.automations.reloadQuietly();
  });
}
