// The shape of a scenario, checked before anything is seeded: each field of the right type,
// nothing unknown, so a typo or a wrong type is a 400 naming its place (`mail[2].to`) rather
// than a step that fails half-way (or a TypeError, a 500). What the services themselves
// refuse (a name taken, a body too long) still comes from them, and the seed is undone then.
import { ScenarioError } from './scenario-error.js';

type Check = (value: unknown, where: string) => void;

const fail = (where: string, what: string): never => {
  throw new ScenarioError(`${where}: ${what}`);
};

const text: Check = (v, where) => {
  if (typeof v !== 'string') fail(where, 'a text');
};
const flag: Check = (v, where) => {
  if (typeof v !== 'boolean') fail(where, 'true or false');
};
const count: Check = (v, where) => {
  if (!Number.isSafeInteger(v) || (v as number) < 0 || (v as number) > 1000)
    fail(where, 'a whole number from 0 to 1000');
};
const mapping: Check = (v, where) => {
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail(where, 'a mapping');
};
const oneOrMany: Check = (v, where) => (Array.isArray(v) ? list(text)(v, where) : text(v, where));

function list(item: Check, max = 10_000): Check {
  return (v, where) => {
    if (!Array.isArray(v)) return fail(where, 'a list');
    if (v.length > max) fail(where, `at most ${max} entries`);
    v.forEach((x, i) => item(x, `${where}[${i}]`));
  };
}

/** A mapping with these fields (those marked required must be there), and no other. */
function fields(shape: Record<string, Check>, required: string[] = []): Check {
  return (v, where) => {
    mapping(v, where);
    const o = v as Record<string, unknown>;
    for (const k of Object.keys(o))
      if (!(k in shape)) fail(where ? `${where}.${k}` : k, `not a field here (${Object.keys(shape).join(', ')})`);
    for (const k of required) if (o[k] === undefined) fail(where ? `${where}.${k}` : k, 'missing');
    for (const [k, check] of Object.entries(shape)) if (o[k] !== undefined) check(o[k], where ? `${where}.${k}` : k);
  };
}

const votes: Check = (v, where) => {
  mapping(v, where);
  for (const [k, x] of Object.entries(v as object)) if (x !== 1 && x !== -1) fail(`${where}.${k}`, '1 or -1');
};

const comment = fields({ author: text, content: text }, ['author', 'content']);

/** Simulated people are checked by their own module (people-rules.ts); here only their place. */
const SCENARIO = fields({
  name: text,
  description: text,
  agents: list(
    fields(
      {
        name: text,
        mail: flag,
        blog: fields({ slug: text, bio: text }),
        community: fields({ description: text }),
        keys: list(text, 10),
      },
      ['name'],
    ),
    1000,
  ),
  mail: list(
    fields(
      {
        from: text,
        to: oneOrMany,
        subject: text,
        text: text,
        reply: list(fields({ from: text, text: text }, ['from', 'text'])),
      },
      ['from', 'to', 'subject', 'text'],
    ),
  ),
  blog: list(
    fields({ author: text, title: text, content: text, comments: list(comment), votes }, [
      'author',
      'title',
      'content',
    ]),
  ),
  communities: list(
    fields(
      {
        name: text,
        owner: text,
        display_name: text,
        description: text,
        posts: list(
          fields({ author: text, title: text, content: text, upvotes: list(text), comments: list(comment) }, [
            'author',
            'title',
          ]),
        ),
      },
      ['name'],
    ),
  ),
  home: fields({ states: list(fields({ entity_id: text, state: text, attributes: mapping }, ['entity_id', 'state'])) }),
  workflows: list(fields({ file: text, definition: mapping, active: flag, run: count, name: text })),
  people: list(mapping, 1000),
});

/** Throws a ScenarioError naming the first field that is not what a scenario takes. */
export function checkScenarioShape(doc: unknown): void {
  SCENARIO(doc, '');
}
