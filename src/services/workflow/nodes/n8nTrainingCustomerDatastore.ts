// Customer Datastore (n8n training): the fixed list of five people n8n's tutorials read. Per
// input item, "get one person" gives the first of them and "get all people" all (or `limit`,
// default 5, unless `returnAll`). Recorded with the oracle (nt-training-datastore).
import type { NodeType } from '../engine/node-type.js';
import type { Item } from '../expressions/api.js';

const PEOPLE = [
  {
    id: '23423532',
    name: 'Jay Gatsby',
    email: 'gatsby@west-egg.com',
    notes: 'Keeps asking about a green light??',
    country: 'US',
    created: '1925-04-10',
  },
  {
    id: '23423533',
    name: 'José Arcadio Buendía',
    email: 'jab@macondo.co',
    notes: 'Lots of people named after him. Very confusing',
    country: 'CO',
    created: '1967-05-05',
  },
  {
    id: '23423534',
    name: 'Max Sendak',
    email: 'info@in-and-out-of-weeks.org',
    notes: 'Keeps rolling his terrible eyes',
    country: 'US',
    created: '1963-04-09',
  },
  {
    id: '23423535',
    name: 'Zaphod Beeblebrox',
    email: 'captain@heartofgold.com',
    notes: 'Felt like I was talking to more than one person',
    country: null,
    created: '1979-10-12',
  },
  {
    id: '23423536',
    name: 'Edmund Pevensie',
    email: 'edmund@narnia.gov',
    notes: 'Passionate sailor',
    country: 'UK',
    created: '1950-10-16',
  },
];

export default {
  types: ['n8n-nodes-base.n8nTrainingCustomerDatastore'],
  async execute(ctx) {
    const out: Item[] = [];
    for (let i = 0; i < ctx.items.length; i++) {
      const operation = ctx.raw<string>('operation', 'getOnePerson');
      let people = PEOPLE.slice(0, 1);
      if (operation === 'getAllPeople') {
        const all = await ctx.param<boolean>('returnAll', i, false);
        people = all ? PEOPLE : PEOPLE.slice(0, Math.max(0, Number(await ctx.param('limit', i, 5))));
      }
      for (const p of people) out.push({ json: { ...p }, pairedItem: { item: i } });
    }
    return [out];
  },
} satisfies NodeType;
