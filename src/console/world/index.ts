// The world of this process: the platform's part and each selected service's, as their
// definitions declare them (ServiceDefinition.world).
import type { ConfiguredService, Platform } from '../../platform/service.js';
import { PLATFORM_WORLD } from '../../platform/world.js';
import { World } from './state.js';

export function worldOf(platform: Platform, selected: ConfiguredService[]): World {
  return new World(platform, [
    { name: 'platform', world: PLATFORM_WORLD },
    ...selected.map(({ definition }) => ({ name: definition.name, world: definition.world })),
  ]);
}

/** Runs world operations one at a time (a save during a restore would read half a world). */
export class OneAtATime {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(work: () => Promise<T>): Promise<T> {
    const next = this.tail.then(work, work);
    this.tail = next.catch(() => {});
    return next;
  }
}
