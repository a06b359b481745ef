// What the docs' shell examples may rely on, checked without running them: the commands they
// call (only what a reader of the README has: Node.js with npm and npx, curl, a POSIX shell and
// its utilities, `npx hamlet` and Hamlet's own dependencies) and no fixed calendar date (a date
// that is "today" when written is the past for every later reader: an example reads relative to
// now or to the platform clock).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, type ShellBlock } from './shell-script.js';

/** What the README's "what you need" names: Node.js 20 (with npm, npx) and curl. */
const REQUIRED_TOOLS = ['node', 'npm', 'npx', 'curl'];
/** POSIX utilities and shell builtins every reader's shell has. */
const SHELL = (
  ': . [ alias awk basename cat cd chmod cmp command cp cut date diff dirname echo env eval exit export false find grep ' +
  'gunzip gzip head kill ls mkdir mv printf pwd read return rm sed set shift sleep sort source tail tee test touch tr ' +
  'trap true uniq unset wait wc xargs'
).split(' ');
/** Shell keywords: the word after them is (again) a command. */
const KEYWORDS = new Set(['if', 'then', 'else', 'elif', 'fi', 'do', 'done', 'while', 'until', '{', '}', '!', 'time']);
const FIXED_DATE = /(?<!\d)(19|20)\d\d-[01]\d-[0-3]\d(?!\d)/;

export interface CommandUse {
  name: string;
  /** The line of the markdown file it is on. */
  line: number;
  /** For `npx`: the package it runs. */
  npxPackage?: string;
}

interface Frame {
  mode: 'cmd' | 'single' | 'double';
  /** The next word is a command name. */
  expect: boolean;
  /** Inside a word that is not a command name (an argument, an assignment's value). */
  inWord: boolean;
}

/**
 * The commands a block calls, read as bash reads them: at the start of a line or after `|`, `;`,
 * `&&`, `||`, inside `$( … )` (in double quotes too), after assignments and keywords; never
 * inside quotes or comments. Also the functions the block defines (`name() { … }`).
 */
export function commandsOf(block: ShellBlock): { uses: CommandUse[]; functions: string[] } {
  const text = block.text;
  const uses: CommandUse[] = [];
  const functions: string[] = [];
  const lineAt = (i: number) => block.line + (text.slice(0, i).match(/\n/g)?.length ?? 0);
  const stack: Frame[] = [{ mode: 'cmd', expect: true, inWord: false }];
  for (let i = 0; i < text.length; ) {
    const f = stack.at(-1)!;
    const c = text[i];
    if (f.mode === 'single') {
      if (c === "'") stack.pop();
      i++;
    } else if (f.mode === 'double') {
      if (c === '"') stack.pop();
      else if (c === '$' && text[i + 1] === '(') stack.push({ mode: 'cmd', expect: true, inWord: false });
      // an escaped character is skipped whole; `$(` is two characters
      i += c === '\\' || (c === '$' && text[i + 1] === '(') ? 2 : 1;
    } else if (c === '\\') {
      i += 2; // an escaped character, or a line continuation: the command goes on
    } else if (/\s/.test(c)) {
      f.inWord = false;
      if (c === '\n') f.expect = true;
      i++;
    } else if (c === '#' && !f.inWord) {
      while (i < text.length && text[i] !== '\n') i++;
    } else if (c === ';' || c === '|' || (c === '&' && !/[<>]/.test(text[i - 1] ?? ''))) {
      Object.assign(f, { inWord: false, expect: true });
      i++;
    } else if (c === ')') {
      if (stack.length > 1) stack.pop();
      else f.inWord = false;
      i++;
    } else if (c === '(') {
      Object.assign(f, { inWord: false, expect: true });
      i++;
    } else if (c === '<' || c === '>') {
      f.inWord = false;
      i++;
    } else if (c === "'" || c === '"') {
      // A quoted word at a command's place is an argument's; inside a word (an assignment's value) it is part of it.
      Object.assign(f, { expect: f.inWord && f.expect, inWord: true });
      stack.push({ mode: c === "'" ? 'single' : 'double', expect: false, inWord: false });
      i++;
    } else if (c === '$' && text[i + 1] === '(') {
      f.inWord = true;
      stack.push({ mode: 'cmd', expect: true, inWord: false });
      i += 2;
    } else if (f.inWord || !f.expect) {
      f.inWord = true;
      i++;
    } else {
      const rest = text.slice(i);
      const assignment = /^[A-Za-z_]\w*=/.exec(rest);
      const word = /^[^\s;|&()<>'"$\\]+/.exec(rest)![0];
      if (assignment) {
        i += assignment[0].length;
        f.inWord = true; // its value; the word after it is still a command
        continue;
      }
      i += word.length;
      f.inWord = true;
      if (rest.slice(word.length).startsWith('()')) functions.push(word);
      else if (!KEYWORDS.has(word)) {
        f.expect = false;
        const npx = word === 'npx' ? /^npx\s+(?:-\S+\s+)*([^\s;|&)]+)/.exec(rest)?.[1] : undefined;
        uses.push({ name: word, line: lineAt(i), ...(npx ? { npxPackage: npx } : {}) });
      }
    }
  }
  return { uses, functions };
}

/** The commands of `blocks` that a reader may not have, each with where it is. */
export function unavailableCommands(blocks: ShellBlock[]): string[] {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { name: string; dependencies: Record<string, string> };
  const npxable = new Set([pkg.name, ...Object.keys(pkg.dependencies)]);
  const parsed = blocks.map((b) => ({ block: b, ...commandsOf(b) }));
  const defined = new Set(parsed.flatMap((p) => p.functions));
  const allowed = new Set([...REQUIRED_TOOLS, ...SHELL, ...defined]);
  return parsed.flatMap(({ block, uses }) =>
    uses.flatMap((u) => {
      if (!allowed.has(u.name)) return [`${block.file}:${u.line}: ${u.name} (not Node.js, npm, curl or a POSIX utility)`];
      if (u.name === 'npx' && !npxable.has(u.npxPackage ?? '')) return [`${block.file}:${u.line}: npx ${u.npxPackage ?? ''} (not hamlet nor one of its dependencies)`];
      return [];
    }),
  );
}

/** Lines of `blocks` holding a calendar date. */
export function fixedDates(blocks: ShellBlock[]): string[] {
  return blocks.flatMap((b) => b.text.split('\n').flatMap((l, k) => (FIXED_DATE.test(l) ? [`${b.file}:${b.line + k}: ${l.trim()}`] : [])));
}
