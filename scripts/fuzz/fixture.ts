// Writes a shrunk difference as a recorded oracle fixture (test/fixtures/n8n-oracle): the
// workflow, its case file (one manual run), and n8n's expected answer recorded by the oracle's
// own recorder (two runs, volatile values found), so `npm test` replays it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { N8nClient } from '../oracle/n8n-server.mjs';
import { recordFile } from '../oracle/run.mjs';
import { caseHash, caseWorkflow, type FuzzCase } from './cases.js';

const FIXTURES = process.env.ORACLE_FIXTURES ?? join(import.meta.dirname, '../../test/fixtures/n8n-oracle');

function fixtureName(c: FuzzCase): string {
  return `fz-${c.type}-${String(c.typeVersion).replace('.', '_')}-${caseHash(c).slice(0, 8)}`;
}

export async function writeFixture(n8n: N8nClient, c: FuzzCase): Promise<string> {
  const name = fixtureName(c);
  writeFileSync(
    join(FIXTURES, 'workflows', `${name}.json`),
    JSON.stringify(caseWorkflow(c, `oracle ${name}`), null, 2) + '\n',
  );
  const caseFile = {
    workflow: `${name}.json`,
    cases: [{ name: 'fuzz', trigger: { kind: 'manual', trigger: 'Manual' } }],
  };
  writeFileSync(join(FIXTURES, 'cases', `${name}.json`), JSON.stringify(caseFile, null, 2) + '\n');
  await recordFile(n8n, `${name}.json`);
  return name;
}
