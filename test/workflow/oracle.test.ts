// The oracle's hand-made cases (test/fixtures/n8n-oracle): node by node and engine semantics,
// with the outputs real n8n 2.8.4 produced for them (`npm run oracle` records them; see
// scripts/oracle/). Cases where the engine still differs are listed, each with its reason, in
// known-differences.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { defineCorpusSuite } from './corpus-suite.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/n8n-oracle');
const knownDifferences = JSON.parse(readFileSync(path.join(dir, 'known-differences.json'), 'utf8')) as Record<string, string>;
defineCorpusSuite({ title: 'n8n oracle cases', dir, knownDifferences, checkImport: true });
