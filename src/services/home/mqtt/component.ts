// What an MQTT component (light, switch, sensor, binary_sensor) provides to the bridge.
import type { Home } from '../core/home.js';
import type { EntityDriver } from '../core/services.js';
import type { Attributes, State } from '../core/state.js';
import type { DiscoveryConfig } from './discovery.js';

export interface Publish {
  (topic: string, payload: string, retain?: boolean): void;
}

export interface StateSubscription {
  topic: string;
  /** The entity's new state from a message, or undefined to ignore the message. */
  apply(payload: string, current: State): { state: string; attributes: Attributes } | undefined;
}

export interface MqttComponent {
  domain: string;
  /** The entity's initial state and attributes. */
  setup(cfg: DiscoveryConfig, name: string, home: Home): { state: string; attributes: Attributes };
  subscriptions(cfg: DiscoveryConfig, home: Home): StateSubscription[];
  /** Sends service calls to the device; absent for read-only components. */
  driver?(cfg: DiscoveryConfig, publish: Publish, home: Home): EntityDriver;
}

export const str = (v: unknown, fallback: string): string => (typeof v === 'string' ? v : fallback);
