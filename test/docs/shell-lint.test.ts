// The docs' command checker reads commands as bash does: the hard cases (commands inside $( ),
// in double quotes, after pipes and assignments; words in quotes, JSON bodies and comments that
// are not commands) and the two things it refuses.
import { expect, it } from 'vitest';
import { commandsOf, fixedDates, unavailableCommands } from './shell-lint.js';

const block = (text: string) => ({ file: 'x.md', line: 10, text });
const names = (text: string) => commandsOf(block(text)).uses.map((u) => u.name);

it('finds commands at line starts, after | ; && ||, in $( ) and in "$( )", after assignments', () => {
  expect(names('a x | b y; c && d || e')).toEqual(['a', 'b', 'c', 'd', 'e']);
  expect(names('K=$(f --name x)\nX=1 Y="$(g)" h')).toEqual(['f', 'g', 'h']);
  expect(names('curl -d "{\\"a\\":\\"$(date)\\"}" u 2>&1 | tail -1')).toEqual(['curl', 'date', 'tail']);
});

it('skips quoted words, multi-line JSON bodies, comments, continuations and function names', () => {
  expect(names(`curl -d '{\n "nodes": [1],\n swaks: 2}' u   # swaks here is prose\n# swaks too`)).toEqual(['curl']);
  expect(names('curl a \\\n  -H x \\\n  -d y')).toEqual(['curl']);
  const { uses, functions } = commandsOf(block("id() { node -pe 'x'; }\nW=$(curl u | id)"));
  expect(functions).toEqual(['id']);
  expect(uses.map((u) => u.name)).toEqual(['node', 'curl', 'id']);
});

it('refuses a tool a reader may not have and npx of a package Hamlet does not depend on', () => {
  expect(unavailableCommands([block('curl u\nswaks --server h:25 --to a@b')])).toEqual(['x.md:11: swaks (not Node.js, npm, curl or a POSIX utility)']);
  expect(unavailableCommands([block('npx hamlet keys create mail\nnpx -y cowsay hi')])).toEqual(['x.md:11: npx cowsay (not hamlet nor one of its dependencies)']);
  expect(unavailableCommands([block('id() { node -p 1; }\necho x | id')])).toEqual([]);
});

it('refuses a calendar date, in a command or in its comment', () => {
  expect(fixedDates([block('curl "$A/history/period?x=1"\ncurl "$A/logbook/2026-01-05T00:00:00Z"')])).toEqual(['x.md:11: curl "$A/logbook/2026-01-05T00:00:00Z"']);
  expect(fixedDates([block('curl "$A/history/period"   # since a day ago')])).toEqual([]);
});
