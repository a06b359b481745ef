// The shared wait helpers: what they return, and what their failures say.
import { describe, expect, it } from 'vitest';
import { waitFor, withDeadline } from './wait.js';

describe('waitFor', () => {
  it('resolves with the first truthy value of a sync or async condition', async () => {
    let n = 0;
    expect(await waitFor(() => ++n >= 3 && n)).toBe(3);
    expect(await waitFor(async () => 'ready')).toBe('ready');
  });

  it('treats a throw as "not yet" and recovers', async () => {
    let n = 0;
    expect(
      await waitFor(() => {
        if (++n < 3) throw new Error('not yet');
        return n;
      }),
    ).toBe(3);
  });

  it('says what it waited for and the last value or error it saw', async () => {
    await expect(waitFor(() => 0, { timeoutMs: 30, message: 'a count' })).rejects.toThrow(
      /timed out after 30 ms waiting for a count; last value: 0/,
    );
    await expect(waitFor(() => expect(1).toBe(2), { timeoutMs: 30, message: 'one' })).rejects.toThrow(
      /last error: expected 1 to be 2/,
    );
    let calls = 0;
    await expect(
      waitFor(() => void calls++, { timeoutMs: 30, message: () => `more than one check (${calls > 1})` }),
    ).rejects.toThrow(/\(true\)/);
  });
});

describe('withDeadline', () => {
  it('passes a value through, and fails a promise that does not settle in time', async () => {
    expect(await withDeadline(Promise.resolve(4), 30, 'four')).toBe(4);
    await expect(withDeadline(new Promise(() => {}), 30, 'never')).rejects.toThrow(
      'timed out after 30 ms waiting for never',
    );
  });
});
