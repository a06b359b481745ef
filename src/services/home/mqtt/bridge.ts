// Placeholder replaced below.
import type { Home } from '../core/home.js';
export async function startMqtt(_home: Home, _s: { url: string; discoveryPrefix: string }) {
  return { stop: async () => {} };
}
