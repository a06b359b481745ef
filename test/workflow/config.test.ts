// The service's settings: bad values stop the start with a message naming them; executions
// beyond WORKFLOW_EXECUTIONS_MAX_COUNT are pruned; $env shows only allowed variables.
import { expect, test } from 'vitest';
import { ConfigError } from '../../src/platform/settings.js';
import { readSettings } from '../../src/platform/settings.js';
import { readWorkflowSettings } from '../../src/services/workflow/settings.js';
import { manualSetWorkflow, startWorkflowServer, wrap } from './helpers.js';

test('bad settings are reported together, each naming its variable', () => {
  expect(() =>
    readSettings(readWorkflowSettings, {
      WORKFLOW_SANDBOX_TIMEOUT_MS: 'soon',
      WORKFLOW_EXECUTIONS_MAX_AGE: 'forever',
      WORKFLOW_TIMEZONE: 'Mars/Base',
    }),
  ).toThrow(ConfigError);
  try {
    readSettings(readWorkflowSettings, {
      WORKFLOW_SANDBOX_TIMEOUT_MS: 'soon',
      WORKFLOW_EXECUTIONS_MAX_AGE: 'forever',
      WORKFLOW_TIMEZONE: 'Mars/Base',
    });
  } catch (err) {
    const problems = (err as ConfigError).problems.join('\n');
    expect(problems).toMatch(/WORKFLOW_SANDBOX_TIMEOUT_MS=soon/);
    expect(problems).toMatch(/WORKFLOW_EXECUTIONS_MAX_AGE=forever/);
    expect(problems).toMatch(/WORKFLOW_TIMEZONE=Mars\/Base/);
  }
  expect(readSettings(readWorkflowSettings, {})).toMatchObject({
    envAllow: [],
    pruneMaxCount: 10_000,
    timezone: 'UTC',
    concurrency: 4,
  });
});

test('executions beyond the maximum count are pruned; $env shows only allowed variables', async () => {
  let s = await startWorkflowServer({ env: { WORKFLOW_ENV_ALLOW: 'GREETING', GREETING: 'hi', SECRET_TOKEN: 'nope' } });
  try {
    const c = await s.api(
      'POST',
      '/workflows',
      manualSetWorkflow('env', [
        { name: 'greeting', type: 'string', value: '={{ $env.GREETING }}' },
        { name: 'secret', type: 'string', value: '={{ $env.SECRET_TOKEN ?? "hidden" }}' },
      ]),
    );
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const e = await s.api('POST', `/workflows/${c.body.id}/execute`, {});
      ids.push(e.body.id);
      if (i === 0)
        expect(e.body.data.resultData.runData.Set[0].data.main[0][0].json).toEqual({
          greeting: 'hi',
          secret: 'hidden',
        });
    }
    // The restarted server runs on the same storage; stopping it (below) drops that storage.
    s = await wrap(await s.t.restart({ WORKFLOW_EXECUTIONS_MAX_COUNT: '2' }), s.key);
    const left = (await s.api('GET', `/executions?workflowId=${c.body.id}`)).body.data.map((e: any) => e.id);
    expect(left).toEqual([ids[3], ids[2]]);
  } finally {
    await s.stop();
  }
});
