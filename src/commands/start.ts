// `hamlet start`: run the selected services (and the console) until Ctrl-C or SIGTERM.
import type { HamletConfig } from '../config.js';
import type { ConfiguredService } from '../platform/service.js';
import { startHamlet } from '../server.js';
import type { Command } from './command.js';
import { hamletVersion } from '../console/version.js';
import { configured } from './setup.js';

export const command: Command = {
  name: 'start',
  usage: 'hamlet start [--services blog,mail,...] [--pretty]',
  summary: 'Runs the services and the console, prints their URLs, and stops on Ctrl-C (SIGINT) or SIGTERM.',
  flags: [
    '--services LIST   the services to run (HAMLET_SERVICES; default all)',
    '--pretty          human-readable logs instead of JSON lines',
    '--log-level L     trace, debug, info, warn, error or silent (HAMLET_LOG_LEVEL)',
  ],
  example: 'hamlet start --services mail,home --pretty',
  async run(_args, flags) {
    const { config, services } = await configured(flags);
    return start(config, services);
  },
};

async function start(config: HamletConfig, services: ConfiguredService[]): Promise<number> {
  const hamlet = await startHamlet(config, { services });
  // Listen for Ctrl-C and SIGTERM before printing the URLs: whoever waits for them (a script,
  // a supervisor, a test) may signal the moment it reads them.
  const stopRequested = new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  printUrls({ ...hamlet.services, ...(hamlet.console ? { console: hamlet.console } : {}) });
  if (!config.smtpRelay) {
    console.log(
      hamlet.services.mail
        ? 'note: HAMLET_SMTP_RELAY is not set: mail to other domains is held in the mail outbox (GET /v0/outbox, `npx hamlet mail outbox`) and sent when Hamlet starts with a relay'
        : 'note: HAMLET_SMTP_RELAY is not set: mail to other domains waits in the job queue until Hamlet runs with the mail service (its outbox) or a relay',
    );
  }
  await stopRequested;
  console.log('stopping…');
  await hamlet.stop();
  return 0;
}

/** The URL table, set apart from the log lines above it. */
function printUrls(services: Record<string, { urls: Record<string, string> } | undefined>): void {
  const rows = Object.entries(services).flatMap(([name, svc]) =>
    Object.entries(svc!.urls).map(([label, url]) => `${name.padEnd(10)} ${label.padEnd(10)} ${url}`),
  );
  console.log(`\nHamlet ${hamletVersion()} is running:\n${rows.join('\n')}\n`);
}
