// The n8n conformance corpus: every case in test/fixtures/n8n-corpus (copied from the project's shared corpus, with its attribution README), imported unchanged, run,
// and compared with what n8n 2.8.4 produced (the corpus README's rule, in corpus-compare.ts).
import path from 'node:path';
import { defineCorpusSuite } from './corpus-suite.js';

defineCorpusSuite({
  title: 'n8n corpus',
  dir: process.env.N8N_CORPUS_DIR ?? path.resolve(import.meta.dirname, '../fixtures/n8n-corpus'),
});
