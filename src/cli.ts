#!/usr/bin/env node
// The one entry point: `hamlet <command> …` (src/commands/: one file per command, listed in
// src/commands/index.ts). This file only runs the dispatch and turns a failure into one line.
import { main } from './commands/main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  async (err: unknown) => {
    // One line an operator can act on; the stack is for whoever debugs Hamlet itself.
    const { describeFailure } = await import('./commands/failure.js');
    console.error(describeFailure(err));
    process.exitCode = 1;
  },
);
