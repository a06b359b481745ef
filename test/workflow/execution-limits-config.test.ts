// The execution limit settings: n8n's EXECUTIONS_TIMEOUT / _MAX semantics and the run data cap.
import { expect, test } from 'vitest';
import { ConfigError } from '../../src/platform/settings.js';
import { readSettings } from '../../src/platform/settings.js';
import { readWorkflowSettings } from '../../src/services/workflow/settings.js';
import { effectiveTimeoutS, RunDataMeter } from '../../src/services/workflow/engine/limits.js';

test('defaults: no server timeout, a 3600 s cap, 64 MB of run data', () => {
  expect(readSettings(readWorkflowSettings, {}).execution).toEqual({
    timeoutS: -1,
    maxTimeoutS: 3600,
    maxRunDataBytes: 64 * 1024 * 1024,
  });
  expect(
    readSettings(readWorkflowSettings, {
      WORKFLOW_EXECUTION_TIMEOUT: '30',
      WORKFLOW_EXECUTION_TIMEOUT_MAX: '60',
      WORKFLOW_MAX_RUN_DATA_MB: '8',
    }).execution,
  ).toEqual({ timeoutS: 30, maxTimeoutS: 60, maxRunDataBytes: 8 * 1024 * 1024 });
});

test('bad values are refused at start, naming the variable', () => {
  for (const [name, value] of [
    ['WORKFLOW_EXECUTION_TIMEOUT', '-2'],
    ['WORKFLOW_EXECUTION_TIMEOUT', '1.5'],
    ['WORKFLOW_EXECUTION_TIMEOUT_MAX', '0'],
    ['WORKFLOW_EXECUTION_TIMEOUT_MAX', 'soon'],
    ['WORKFLOW_MAX_RUN_DATA_MB', '0'],
  ]) {
    expect(() => readSettings(readWorkflowSettings, { [name]: value }), `${name}=${value}`).toThrow(ConfigError);
    try {
      readSettings(readWorkflowSettings, { [name]: value });
    } catch (err) {
      expect((err as ConfigError).problems.join('\n')).toContain(`${name}=${value}`);
    }
  }
});

test("a workflow's positive executionTimeout wins, capped by the maximum; otherwise the server default", () => {
  const limits = { timeoutS: -1, maxTimeoutS: 60, maxRunDataBytes: 1 };
  expect(effectiveTimeoutS(undefined, limits)).toBeUndefined();
  expect(effectiveTimeoutS(-1, limits)).toBeUndefined();
  expect(effectiveTimeoutS(10, limits)).toBe(10);
  expect(effectiveTimeoutS(7200, limits)).toBe(60);
  expect(effectiveTimeoutS(-1, { ...limits, timeoutS: 20 })).toBe(20);
  expect(effectiveTimeoutS(undefined, { ...limits, timeoutS: 600 })).toBe(60);
});

test('the run data meter counts every recorded item and 1 KB per node run', () => {
  const meter = new RunDataMeter(10_000);
  const item = { json: { text: 'x'.repeat(1000) } };
  expect(meter.add([[item]])).toBe(false);
  const first = meter.bytes;
  expect(first).toBeGreaterThan(2000);
  meter.add([[item]]); // recorded again (stored again): counted again
  expect(meter.bytes - first).toBe(first);
  meter.add([[]]); // a run with no output still costs its record
  expect(meter.bytes - 2 * first).toBe(1024);
  let over = false;
  for (let i = 0; i < 10 && !over; i++) over = meter.add([[{ json: { text: 'y'.repeat(1000) } }]]);
  expect(over).toBe(true);
});
