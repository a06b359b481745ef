// A clock set back (an evaluator rewinding, a world restored with its earlier clock) must not
// lock a throttled caller out for the length of the jump (issue 27, finding 9). The platform's
// rate-limit windows are covered in test/console/clock-api.test.ts; here, the community's
// posting quota, counted from the agent's own rows.
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/platform/clock.js';
import { startCommunity } from '../community/helpers.js';

describe('a clock set back', () => {
  it('does not hold a community posting quota shut for the jump', async () => {
    const clock = new ManualClock('2026-04-01T08:00:00.000Z');
    const c = await startCommunity({ clock, env: { HAMLET_RATE_COMMUNITY_POSTS: '1/30m' } });
    try {
      const a = await c.register('rewinder');
      const com = await c.createCommunity(a.key, 'rewind');
      await c.createPost(a.key, com.id, 'first');
      const post = () =>
        c.call('POST', '/api/v1/posts', { key: a.key, body: { title: 'again', content: 'x', community_id: com.id } });
      expect((await post()).status).toBe(429);
      clock.set('2026-03-31T08:00:00.000Z');
      const r = await post();
      if (r.status === 429) expect(Number(r.headers.get('retry-after'))).toBeLessThanOrEqual(30 * 60);
      else expect(r.status).toBe(201);
    } finally {
      await c.t.destroy();
    }
  });
});
