// Seeding a running Hamlet: the scenario runner with this process's way to each service
// (its HTTP API at the directory's address, and the mail service's SMTP port for mail from
// outside), waiting for queued work (mail deliveries, executions) between steps.
//
// A seed is all or nothing: the world is read before the first step, and a step that fails
// puts it back (rows and keys; the clock, which seeding does not move, is left running), so a
// scenario refused half-way leaves no half-seeded world behind.
import type { Platform, RunningService } from '../../platform/service.js';
import { ServiceClient } from '../../platform/console-client.js';
import { nodemailer } from '../../platform/optional-modules.js';
import {
  loadWorkflowFiles,
  ScenarioError,
  ScenarioRunner,
  type Scenario,
  type ScenarioFiles,
  type SeedKeys,
} from './scenario.js';
import type { World } from './state.js';

/**
 * Seeds a scenario. Its workflow files are read from `files` (a folder: the scenario's own,
 * from the command line) before anything is seeded; without a folder only inline definitions.
 * With `world`, a failure restores the world as it was before and is a ScenarioError.
 */
export async function seedScenario(
  platform: Platform,
  running: Partial<Record<string, RunningService>>,
  scenario: Scenario,
  files: string | ScenarioFiles,
  world?: World,
): Promise<SeedKeys> {
  const loaded = loadWorkflowFiles(scenario, typeof files === 'string' ? { folder: files } : files);
  const before = world ? { ...(await world.read()), clock: undefined } : undefined;
  try {
    return await (await seedScenarioRunner(platform, running)).run(loaded);
  } catch (err) {
    if (!world || !before) throw err;
    await world.restore(before);
    const reason = err instanceof Error ? err.message : String(err);
    throw new ScenarioError(`${reason} (nothing was seeded: the world is as it was before)`);
  }
}

/** A runner ready to apply scenarios one after another (the demo's days), then `finish()`. */
export async function seedScenarioRunner(
  platform: Platform,
  running: Partial<Record<string, RunningService>>,
  beforeStep?: () => void,
): Promise<ScenarioRunner> {
  const smtpUrl = running.mail?.urls.smtp;
  const sendFromOutside = async (from: string, to: string[], subject: string, text: string) => {
    if (!smtpUrl)
      throw new ScenarioError('mail from outside needs the mail service running in this process (its SMTP port)');
    const { hostname, port } = new URL(smtpUrl);
    const transport = nodemailer().createTransport({
      host: hostname,
      port: Number(port),
      secure: false,
      ignoreTLS: true,
    });
    try {
      await transport.sendMail({ from, to, subject, text });
    } catch (err) {
      throw new ScenarioError(`mail from ${from}: the mail service refused it over SMTP: ${(err as Error).message}`);
    } finally {
      transport.close();
    }
  };
  const runner = new ScenarioRunner(
    new ServiceClient(platform),
    platform.keys,
    sendFromOutside,
    () => platform.jobs.idle(undefined, 60_000),
    beforeStep,
  );
  await runner.prepare(Object.keys(running));
  return runner;
}
