// A private Hamlet on the configured storage for one CLI command: every service selected, on
// free ports, without the console or rate limits, stopped when the work is done. Commands
// that act through the services' APIs (seeding a scenario, minting an agent's keys) use it,
// so what they do is what the services themselves would write.
import { configure, type HamletConfig } from '../config.js';
import { createLogger } from '../platform/logger.js';
import type { ConfiguredService } from '../platform/service.js';
import { startHamlet, type Hamlet } from '../server.js';

export async function withPrivateInstance<T>(
  config: HamletConfig,
  work: (hamlet: Hamlet, selected: ConfiguredService[]) => Promise<T>,
): Promise<T> {
  const env = config.source.env;
  const { ports } = await configure(env, {});
  const own = await configure(
    {
      ...env,
      ...Object.fromEntries(ports.map((p) => [p.setting, '0'])),
      HAMLET_CONSOLE: 'off',
      HAMLET_RATE_LIMITS: 'off',
    },
    { services: config.services.join(',') },
  );
  const hamlet = await startHamlet(own.config, {
    services: own.services,
    logger: createLogger({ level: 'warn', pretty: false }),
  });
  try {
    return await work(hamlet, own.services);
  } finally {
    await hamlet.stop();
  }
}
