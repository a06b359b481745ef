// The clock's admin API: read it, freeze or unfreeze it, jump it, and advance it with everything
// that falls due on the way run in time order (platform/timers.ts). Behind the console's admin key.
import { Type, type Static } from '@sinclair/typebox';
import { ControllableClock, parseIsoTime } from '../../platform/clock.js';
import { HttpError } from '../../platform/errors.js';
import type { ConsoleModule } from '../context.js';

const ClockState = Type.Object(
  {
    now: Type.String({ description: 'The clock time, ISO 8601 (UTC).' }),
    frozen: Type.Boolean({ description: 'Whether time stands still until moved.' }),
  },
  { additionalProperties: false },
);

const SetClock = Type.Object(
  {
    frozen: Type.Optional(
      Type.Boolean({ description: 'true: time stands still; false: it runs (from where it stood).' }),
    ),
    now: Type.Optional(
      Type.String({
        maxLength: 64,
        description:
          'Jump to this time (ISO 8601). A jump skips: what falls due in between runs once, not once per interval.',
      }),
    ),
  },
  { additionalProperties: false },
);

/** A year of clock time at most per call; longer spans are several calls. */
const MAX_ADVANCE_SECONDS = 366 * 86_400;

const Advance = Type.Object(
  {
    seconds: Type.Number({
      exclusiveMinimum: 0,
      maximum: MAX_ADVANCE_SECONDS,
      description: 'How far to move the clock; everything due on the way runs, in time order.',
    }),
  },
  { additionalProperties: false },
);

const ErrorBody = Type.Object({ message: Type.String(), code: Type.Optional(Type.String()) });
const answers = { 200: ClockState, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 504: ErrorBody };

export const clockAdmin: ConsoleModule = (app, ctx) => {
  const controllable = (): ControllableClock => {
    const { clock } = ctx.platform;
    if (!(clock instanceof ControllableClock))
      throw new HttpError(409, 'This process was started with a fixed clock; it cannot be moved', 'clock_fixed');
    return clock;
  };
  const state = (): Static<typeof ClockState> => ({
    now: ctx.platform.clock.now().toISOString(),
    frozen: ctx.platform.clock.frozen ?? false,
  });

  app.get(
    '/admin/api/clock',
    { schema: { tags: ['clock'], summary: 'The clock time and whether it is frozen', response: answers } },
    async () => state(),
  );

  app.post(
    '/admin/api/clock',
    { schema: { tags: ['clock'], summary: 'Freeze, unfreeze or jump the clock', body: SetClock, response: answers } },
    async (request) => {
      const { frozen, now } = request.body;
      if (frozen === undefined && now === undefined)
        throw new HttpError(
          400,
          'body must have frozen (true or false), now (an ISO 8601 time), or both',
          'validation_error',
        );
      let to: number | undefined;
      if (now !== undefined) {
        to = parseIsoTime(now);
        if (to === undefined)
          throw new HttpError(
            400,
            `body.now must be an ISO 8601 date-time, e.g. 2026-01-01T09:00:00Z (got "${now}")`,
            'validation_error',
          );
      }
      const clock = controllable();
      if (frozen === true) clock.freeze();
      if (to !== undefined) clock.set(to);
      if (frozen === false) clock.unfreeze();
      // What a jump made due runs before the answer (once each: a jump skips, an advance steps).
      await ctx.platform.timers
        .settle()
        .catch((err) => ctx.platform.logger.warn({ err }, 'clock jump: due work did not settle'));
      return state();
    },
  );

  app.post(
    '/admin/api/clock/advance',
    {
      schema: {
        tags: ['clock'],
        summary: 'Advance the clock, running what falls due in time order',
        body: Advance,
        response: answers,
      },
    },
    async (request) => {
      const { seconds } = request.body;
      controllable();
      try {
        await ctx.platform.timers.advance(Math.round(seconds * 1000));
      } catch (err) {
        throw new HttpError(
          504,
          `The clock moved, but the work that fell due did not finish: ${(err as Error).message}`,
          'advance_incomplete',
        );
      }
      return state();
    },
  );
};
