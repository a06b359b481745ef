// Records hand-minimised fuzz cases as fz-* oracle fixtures, when a difference the fuzzer found
// is easier to state by hand than to shrink (one n8n started, each case recorded by the oracle's
// recorder, as `npm run fuzz -- --shrink N --fixtures` records shrunk ones).
//
//   node --import tsx scripts/fuzz/record-cases.ts cases.json     (a JSON list of FuzzCase)
//
// Port FUZZ_PORT (default 5690), n8n's data folder ORACLE_DATA_DIR (a temporary one by default).
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cacheDir } from '../oracle/install.mjs';
import { startN8n } from '../oracle/n8n-server.mjs';
import type { FuzzCase } from './cases.js';
import { writeFixture } from './fixture.js';

const file = process.argv[2];
if (!file) throw new Error('usage: record-cases.ts <cases.json>');
const cases = JSON.parse(readFileSync(file, 'utf8')) as FuzzCase[];
process.env.ORACLE_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'hamlet-fuzz-n8n-'));
const n8n = await startN8n(cacheDir(), Number(process.env.FUZZ_PORT ?? 5690));
n8n.versionCli = await n8n.version();
try {
  for (const c of cases) console.log(`[fuzz] ${c.type}@${c.typeVersion} → ${await writeFixture(n8n, c)}`);
} finally {
  n8n.stop();
}
