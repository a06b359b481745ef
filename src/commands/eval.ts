// `hamlet eval run|check|schema`: an agent on tasks, each episode in an isolated world
// (docs/evaluations.md). The evaluation code loads only when the command runs.
import type { Command } from './command.js';
import { configured } from './setup.js';

export const command: Command = {
  name: 'eval',
  usage: 'hamlet eval run|check|schema …',
  summary:
    'Runs an agent on tasks, each episode in an isolated world, and writes scores, checks, changes, traces and an HTML report.',
  subcommands: [
    {
      name: 'run',
      usage: 'hamlet eval run <task.yaml…> --agent "<command>" [--parallel N] [--repeat N] [--out DIR]',
      summary: "run each task's episodes; writes DIR/summary.json and DIR/report.html (exit 2 when an episode failed)",
      flags: [
        '--agent CMD     the agent, run in a shell once per episode (its keys, URLs and instruction in its environment)',
        '--parallel N    episodes at once, each on its own warm instance (default 1)',
        '--repeat N      episodes per task (default 1)',
        '--out DIR       where results go (default eval-runs/<time>)',
      ],
      example:
        'hamlet eval run examples/eval/party-lights.yaml --agent "node examples/eval/agents/reference.mjs" --parallel 2',
    },
    {
      name: 'check',
      usage: 'hamlet eval check <task.yaml…>',
      summary: 'check task files without running them',
      example: 'hamlet eval check examples/eval/party-lights.yaml',
    },
    {
      name: 'schema',
      usage: 'hamlet eval schema',
      summary: "print the task format's JSON Schema",
      example: 'hamlet eval schema > task.schema.json',
    },
  ],
  example: 'hamlet eval run examples/eval/party-lights.yaml --agent "node my-agent.mjs"',
  async run(args, flags) {
    const { config } = await configured(flags);
    const { evalCommand } = await import('../eval/command.js');
    return evalCommand(config, args, flags);
  },
};
