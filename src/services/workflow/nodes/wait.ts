// Wait: for a time interval, until a time, or until its resume webhook is called.
// Short waits (under 65 s, as n8n) sleep in memory; longer ones park the execution as
// `waiting` with waitTill set, and a durable job resumes it.
import { IN_MEMORY_WAIT_MS } from '../engine/execute.js';
import { NodeOperationError, type NodeType } from '../engine/node-type.js';

const UNIT_MS: Record<string, number> = { seconds: 1000, minutes: 60_000, hours: 3_600_000, days: 86_400_000 };

export default {
  types: ['n8n-nodes-base.wait'],
  async execute(ctx) {
    if (ctx.resumed) return [ctx.resumed.data ?? ctx.items];
    const resume = ctx.raw<string>('resume', 'timeInterval');
    if (resume === 'webhook' || resume === 'form') {
      const limit = ctx.raw<boolean>('limitWaitTime', false);
      let until: Date | undefined;
      if (limit) {
        const type = ctx.raw<string>('limitType', 'afterTimeInterval');
        until =
          type === 'atSpecifiedTime'
            ? new Date(String(await ctx.param('maxDateAndTime', 0, '')))
            : new Date(
                ctx.now().getTime() +
                  Number(await ctx.param('resumeAmount', 0, 1)) *
                    (UNIT_MS[ctx.raw<string>('resumeUnit', 'hours')] ?? 3_600_000),
              );
      }
      return { wait: { webhook: true, until } };
    }
    let waitMs: number;
    if (resume === 'specificTime') {
      const at = new Date(String(await ctx.param('dateTime', 0, '')));
      if (Number.isNaN(at.getTime())) throw new NodeOperationError('[Wait node] invalid date and time');
      waitMs = at.getTime() - ctx.now().getTime();
    } else {
      // v1.1 counts in seconds by default; v1 in hours.
      const amount = Number(await ctx.param('amount', 0, 1));
      const unit = ctx.raw<string>('unit', ctx.typeVersion >= 1.1 ? 'seconds' : 'hours');
      if (!Number.isFinite(amount) || amount < 0) throw new NodeOperationError('[Wait node] invalid amount');
      waitMs = amount * (UNIT_MS[unit] ?? 1000);
    }
    if (waitMs <= 0) return [ctx.items];
    if (waitMs < IN_MEMORY_WAIT_MS) {
      await ctx.sleep(waitMs);
      return [ctx.items];
    }
    return { wait: { until: new Date(ctx.now().getTime() + waitMs) } };
  },
} satisfies NodeType;
