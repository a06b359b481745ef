// `npm run cluster` on a first run: the database named in DATABASE_URL (and its ?schema=) is
// created when missing, and left alone when it is there. Runs on the CI's PostgreSQL.
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureDatabase } from '../../scripts/cluster/infrastructure.js';

const server = process.env.TEST_DATABASE_URL;
const database = `hamlet_recipe_${Date.now().toString(36)}`;

async function query(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(text, values);
  } finally {
    await c.end();
  }
}

afterAll(async () => {
  if (server) await query(server, `drop database if exists ${database}`);
});

describe.skipIf(!server)('the recipe prepares its database', () => {
  it('creates a missing database and schema once, and says so only then', async () => {
    const url = new URL(server!);
    url.pathname = `/${database}`;
    url.searchParams.set('schema', 'cluster_one');
    const said: string[] = [];
    await ensureDatabase(url.toString(), (line) => said.push(line));
    await ensureDatabase(url.toString(), (line) => said.push(line));
    expect(said).toEqual([`creating database ${database}`]);
    url.searchParams.delete('schema');
    const schemas = await query(url.toString(), 'select 1 from information_schema.schemata where schema_name = $1', [
      'cluster_one',
    ]);
    expect(schemas.rowCount).toBe(1);
  });
});
