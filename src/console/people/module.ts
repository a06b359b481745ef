// The console's part for simulated people: the engine of this process (armed when a scenario
// with `people` is seeded through the admin API), what it holds at GET
// /admin/api/world/people, and its stop with the console.
import { Type } from '@sinclair/typebox';
import type { ConsoleModule } from '../context.js';
import { peopleOf } from './engine.js';

const PeopleList = Type.Object({
  people: Type.Array(
    Type.Object({
      name: Type.String(),
      rules: Type.Array(Type.Object({}, { additionalProperties: true })),
      fired: Type.Array(Type.Integer()),
    }),
  ),
});

export const peopleAdmin: ConsoleModule = (app, ctx) => {
  const engine = peopleOf(ctx.platform, Object.keys(ctx.running));
  app.addHook('onClose', () => engine.stop());
  app.get(
    '/admin/api/world/people',
    {
      schema: {
        description: 'The simulated people armed in this process, their rules and how often each fired',
        response: { 200: PeopleList },
      },
    },
    async () => ({ people: engine.list() }),
  );
};
