// Seeding a running Hamlet: the scenario runner with this process's way to each service
// (its HTTP API at the directory's address, and the mail service's SMTP port for mail from
// outside), waiting for queued work (mail deliveries, executions) between steps.
import nodemailer from 'nodemailer';
import type { Platform, RunningService } from '../../platform/service.js';
import { ServiceClient } from '../../platform/console-client.js';
import { loadWorkflowFiles, ScenarioRunner, type Scenario, type ScenarioFiles, type SeedKeys } from './scenario.js';

/**
 * Seeds a scenario. Its workflow files are read from `files` (a folder: the scenario's own,
 * from the command line) before anything is seeded; without a folder only inline definitions.
 */
export async function seedScenario(platform: Platform, running: Partial<Record<string, RunningService>>, scenario: Scenario, files: string | ScenarioFiles): Promise<SeedKeys> {
  const loaded = loadWorkflowFiles(scenario, typeof files === 'string' ? { folder: files } : files);
  return (await seedScenarioRunner(platform, running)).run(loaded);
}

/** A runner ready to apply scenarios one after another (the demo's days), then `finish()`. */
export async function seedScenarioRunner(platform: Platform, running: Partial<Record<string, RunningService>>, beforeStep?: () => void): Promise<ScenarioRunner> {
  const smtpUrl = running.mail?.urls.smtp;
  const sendFromOutside = async (from: string, to: string[], subject: string, text: string) => {
    if (!smtpUrl) throw new Error('mail from outside needs the mail service running in this process (its SMTP port)');
    const { hostname, port } = new URL(smtpUrl);
    const transport = nodemailer.createTransport({ host: hostname, port: Number(port), secure: false, ignoreTLS: true });
    try {
      await transport.sendMail({ from, to, subject, text });
    } finally {
      transport.close();
    }
  };
  const runner = new ScenarioRunner(new ServiceClient(platform), platform.keys, sendFromOutside, () => platform.jobs.idle(undefined, 60_000), beforeStep);
  await runner.prepare(Object.keys(running));
  return runner;
}
