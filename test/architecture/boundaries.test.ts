// The architecture's boundaries, checked by reading the source (docs/architecture.md):
// - every file under src/ has an owner: the platform, a service, the console, or one of the
//   entry points (config.ts, server.ts, cli.ts, the registry);
// - the platform imports nothing outside platform/ (no config, no service, no console);
// - a service imports only its own folder and the platform (no other service, no config, no
//   console, no entry point); the console imports no service's code and no entry point;
// - no import cycle runs across folders, and no runtime import cycle runs between two files;
// - a service's tables are named only by its store/ folder and its migrations.ts (the
//   platform's tables only by the platform). Table names are those the migration files create.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** 'platform', 'console', a service's folder name, or an entry point: 'config', 'server', 'cli', 'registry'. */
type Owner = string;

interface Import {
  /** The imported file, resolved against the repository root, e.g. 'src/services/mail/store/index.ts'. */
  target: string;
  /** `import type`, `export type`, or an `import('…')` type: gone once compiled. */
  typeOnly: boolean;
}

interface SourceFacts {
  imports: Import[];
  /** Text of every string literal and template literal piece. */
  strings: string[];
}

/** A relative specifier resolved to the file it loads: `./x.js` is x.ts in the source tree. */
function resolveSpecifier(file: string, specifier: string): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return joined.endsWith('.js') ? `${joined.slice(0, -3)}.ts` : joined;
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x.js'` runs the file
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return (
    !clause.name &&
    !!named &&
    ts.isNamedImports(named) &&
    named.elements.length > 0 &&
    named.elements.every((e) => e.isTypeOnly)
  );
}

/** Imports (static, dynamic, re-exports, type-only) and string texts of one source file. */
function readFacts(file: string, source: string): SourceFacts {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports: Import[] = [];
  const strings: string[] = [];
  const addImport = (specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
    imports.push({ target: resolveSpecifier(file, specifier.text), typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) addImport(node.moduleSpecifier, isTypeOnlyImport(node));
    else if (ts.isExportDeclaration(node)) addImport(node.moduleSpecifier, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      addImport(node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) addImport(node.argument.literal, true);
    else if (ts.isExternalModuleReference(node)) addImport(node.expression, false);
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, strings };
}

const ENTRY_POINTS: Record<string, Owner> = {
  'src/config.ts': 'config',
  'src/server.ts': 'server',
  'src/cli.ts': 'cli',
  'src/services/registry.ts': 'registry',
};

/** Where a file under src/ belongs; undefined for a file nobody owns (the test refuses those). */
function ownerOf(file: string): Owner | undefined {
  if (ENTRY_POINTS[file]) return ENTRY_POINTS[file];
  const parts = file.split('/');
  if (parts[0] !== 'src') return undefined;
  if (parts[1] === 'platform' || parts[1] === 'console') return parts[1];
  if (parts[1] === 'commands') return 'cli'; // the CLI's commands that need more than cli.ts
  if (parts[1] === 'eval') return 'eval'; // evaluations: runs instances and agents, like a command
  if (parts[1] === 'demo') return 'demo'; // the generated demo world (world seed --demo, evaluations, benchmarks)
  if (parts[1] === 'services' && parts.length > 3) return parts[2];
  return undefined;
}

const isService = (owner: Owner | undefined): owner is Owner =>
  !!owner && !['platform', 'console', 'config', 'server', 'cli', 'registry', 'eval', 'demo'].includes(owner);

/** The only places that may name an owner's tables. */
function mayNameTablesOf(file: string, owner: Owner): boolean {
  if (owner === 'platform') return file.startsWith('src/platform/');
  return file.startsWith(`src/services/${owner}/store/`) || file === `src/services/${owner}/migrations.ts`;
}

/** Tables a migration file creates (Kysely's createTable or raw CREATE TABLE). */
function tablesCreatedIn(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/createTable\(\s*['"`](\w+)['"`]/g)) found.add(m[1]);
  for (const m of source.matchAll(/CREATE TABLE\s+(?:IF NOT EXISTS\s+)?["`]?(\w+)/gi)) found.add(m[1]);
  return [...found];
}

/** Every boundary a file crosses, as readable lines; empty when it keeps to its side. */
function violations(file: string, facts: SourceFacts, tables: ReadonlyMap<string, Owner>): string[] {
  const owner = ownerOf(file);
  const found: string[] = [];
  for (const { target } of facts.imports) {
    const targetOwner = ownerOf(target);
    if (owner === 'platform' && targetOwner !== 'platform') found.push(`${file}: the platform imports ${target}`);
    // The console reaches services over their APIs and declared hooks (through the registry), never their code.
    if (owner === 'console' && (isService(targetOwner) || targetOwner === 'server' || targetOwner === 'cli'))
      found.push(`${file}: the console imports ${target}`);
    if (isService(owner) && targetOwner !== 'platform' && targetOwner !== owner)
      found.push(`${file}: service ${owner} imports ${target}`);
  }
  const named = new Set<string>();
  for (const text of facts.strings)
    for (const word of text.match(/\b\w+\b/g) ?? []) if (tables.has(word)) named.add(word);
  for (const table of named) {
    if (!mayNameTablesOf(file, tables.get(table)!))
      found.push(`${file}: names table ${table} (owned by ${tables.get(table)})`);
  }
  return found;
}

/**
 * The folder-level view of one import: both files seen from the deepest folder that holds
 * them both, each as the child of that folder it lies in (a subfolder taken whole, written
 * with a trailing slash, or a file). `src/platform/http.ts → src/config.ts` is the arrow
 * `src/platform/ → src/config.ts`; two files in one folder give `undefined` (not a folder's arrow).
 */
function folderArrow(from: string, to: string): [string, string] | undefined {
  const a = from.split('/');
  const b = to.split('/');
  let common = 0;
  while (common < a.length - 1 && common < b.length - 1 && a[common] === b[common]) common++;
  const node = (parts: string[]) => parts.slice(0, common + 1).join('/') + (common + 1 < parts.length ? '/' : '');
  const [x, y] = [node(a), node(b)];
  if (x === y || (!x.endsWith('/') && !y.endsWith('/'))) return undefined;
  return [x, y];
}

type Graph = Map<string, Map<string, string>>; // node → (node it imports → the file import behind the arrow)

function addArrow(graph: Graph, from: string, to: string, why: string): void {
  let out = graph.get(from);
  if (!out) graph.set(from, (out = new Map()));
  if (!out.has(to)) out.set(to, why);
}

/** The strongly connected groups of more than one node (Tarjan), each a set of nodes that import each other round. */
function cycleGroups(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const group: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      group.push(w);
    } while (w !== v);
    if (group.length > 1) groups.push(group.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return groups;
}

/** One cycle through a group, as the line a reader follows: `a → b → a (a/x.ts imports b/y.ts; …)`. */
function describeCycle(graph: Graph, group: string[]): string {
  const inGroup = new Set(group);
  const start = group[0];
  // Shortest way back to the start (breadth first), so the named cycle is the smallest one.
  const cameFrom = new Map<string, string>();
  const queue = [start];
  let end: string | undefined;
  while (queue.length && !end) {
    const v = queue.shift()!;
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        end = v;
        break;
      }
      if (!cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  const path = [start];
  for (let v = end!; v !== start; v = cameFrom.get(v)!) path.splice(1, 0, v);
  path.push(start);
  const why = path.slice(0, -1).map((v, i) => graph.get(v)!.get(path[i + 1])!);
  return `${path.join(' → ')} (${why.join('; ')})`;
}

/** Cycles across folders: among the children of every folder, a cycle through at least one subfolder. */
function folderCycles(imports: ReadonlyMap<string, Import[]>): string[] {
  const graph: Graph = new Map();
  for (const [file, list] of imports) {
    for (const { target } of list) {
      if (!imports.has(target)) continue;
      const arrow = folderArrow(file, target);
      if (arrow) addArrow(graph, arrow[0], arrow[1], `${file} imports ${target}`);
    }
  }
  return cycleGroups(graph).map((group) => describeCycle(graph, group));
}

/** Cycles between files through imports that stay after compiling (a module then runs half-initialised). */
function runtimeFileCycles(imports: ReadonlyMap<string, Import[]>): string[] {
  const graph: Graph = new Map();
  for (const [file, list] of imports) {
    for (const { target, typeOnly } of list)
      if (!typeOnly && imports.has(target)) addArrow(graph, file, target, `${file} imports ${target}`);
  }
  return cycleGroups(graph).map((group) => describeCycle(graph, group));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && /\.(ts|mts|mjs)$/.test(e.name) && !e.name.endsWith('.d.ts'))
    .map((e) => path.posix.join(path.relative(ROOT, e.parentPath).split(path.sep).join('/'), e.name))
    .sort();
}

function tableOwners(files: string[]): Map<string, Owner> {
  const owners = new Map<string, Owner>();
  for (const file of files) {
    const owner =
      file === 'src/platform/migrations.ts' ? 'platform' : /^src\/services\/(\w+)\/migrations\.ts$/.exec(file)?.[1];
    if (!owner) continue;
    for (const table of tablesCreatedIn(readFileSync(path.join(ROOT, file), 'utf8'))) owners.set(table, owner);
  }
  return owners;
}

const files = sourceFiles('src');
const facts = new Map(files.map((f) => [f, readFacts(f, readFileSync(path.join(ROOT, f), 'utf8'))]));
const importsOf = new Map([...facts].map(([f, x]) => [f, x.imports]));
const tables = tableOwners(files);
const found = new Map(files.map((f) => [f, violations(f, facts.get(f)!, tables)]));
const crossings = (keep: (line: string) => boolean) => [...found.values()].flat().filter(keep);

describe('architecture boundaries', () => {
  it('finds the tables of every service and of the platform, each prefixed with its owner', () => {
    const owners = new Set(tables.values());
    for (const owner of ['platform', 'blog', 'mail', 'community', 'home', 'workflow']) expect(owners).toContain(owner);
    for (const [table, owner] of tables)
      expect(table.startsWith(`${owner}_`), `${table} is created by ${owner}`).toBe(true);
  });

  it('every file under src/ has an owner, so every rule below covers it', () => {
    expect(files.filter((f) => !ownerOf(f))).toEqual([]);
    for (const entry of Object.keys(ENTRY_POINTS)) expect(files).toContain(entry);
  });

  it('the platform imports nothing outside platform/ (no config, no service, no console)', () => {
    expect(crossings((l) => l.includes(': the platform imports '))).toEqual([]);
  });

  it('the console imports no service code and no entry point (it uses their APIs and declared hooks)', () => {
    expect(crossings((l) => l.includes(': the console imports '))).toEqual([]);
  });

  it('a service imports only its own folder and the platform (no other service, config, console or CLI)', () => {
    expect(crossings((l) => l.includes(': service '))).toEqual([]);
  });

  it('no import cycle runs across folders', () => {
    expect(folderCycles(importsOf)).toEqual([]);
  });

  it('no runtime import cycle runs between files', () => {
    expect(runtimeFileCycles(importsOf)).toEqual([]);
  });

  it("only a service's store/ and migrations.ts name its tables; only the platform names the platform's", () => {
    expect(crossings((l) => l.includes(': names table '))).toEqual([]);
  });

  it('the scanner sees each kind of crossing in a synthetic file', () => {
    const demoTables = new Map<string, Owner>([
      ['blog_posts', 'blog'],
      ['platform_jobs', 'platform'],
    ]);
    const scan = (file: string, source: string) => violations(file, readFacts(file, source), demoTables);
    const platformFile = `import { x } from '../services/blog/store.js';\nimport type { C } from '../config.js';\nexport const q = (db) => db.selectFrom('blog_posts');`;
    expect(scan('src/platform/demo.ts', platformFile)).toEqual([
      'src/platform/demo.ts: the platform imports src/services/blog/store.ts',
      'src/platform/demo.ts: the platform imports src/config.ts',
      'src/platform/demo.ts: names table blog_posts (owned by blog)',
    ]);
    const serviceFile =
      "const m = await import('../../blog/index.js');\nimport { ConfigError } from '../../../config.js';\nsql`SELECT * FROM platform_jobs`;";
    expect(scan('src/services/mail/routes/x.ts', serviceFile)).toEqual([
      'src/services/mail/routes/x.ts: service mail imports src/services/blog/index.ts',
      'src/services/mail/routes/x.ts: service mail imports src/config.ts',
      'src/services/mail/routes/x.ts: names table platform_jobs (owned by platform)',
    ]);
    expect(
      scan(
        'src/console/x.ts',
        "import { startHamlet } from '../server.js'; import type { ServiceName } from '../services/registry.js';",
      ),
    ).toEqual(['src/console/x.ts: the console imports src/server.ts']);
    expect(scan('src/services/blog/store/posts.ts', "db.updateTable('blog_posts')")).toEqual([]);
    // Words that only contain a table's name are not the table.
    expect(scan('src/services/mail/x.ts', "'blog_posts_slug'; // blog_posts")).toEqual([]);
  });

  it('the cycle finders name the cycle they see', () => {
    const graph = new Map<string, Import[]>([
      ['src/platform/http.ts', [{ target: 'src/config.ts', typeOnly: true }]],
      ['src/config.ts', [{ target: 'src/services/registry.ts', typeOnly: false }]],
      ['src/services/registry.ts', [{ target: 'src/services/blog/index.ts', typeOnly: false }]],
      [
        'src/services/blog/index.ts',
        [
          { target: 'src/platform/http.ts', typeOnly: false },
          { target: 'src/services/blog/errors.ts', typeOnly: false },
        ],
      ],
      // A service's index wiring its subfolders, which use a file beside the index: no cycle.
      ['src/services/blog/errors.ts', []],
      ['src/services/blog/http/index.ts', [{ target: 'src/services/blog/errors.ts', typeOnly: false }]],
      // Two files of one folder importing each other: not a folder's cycle, but a runtime one.
      ['src/services/blog/store/a.ts', [{ target: 'src/services/blog/store/b.ts', typeOnly: false }]],
      ['src/services/blog/store/b.ts', [{ target: 'src/services/blog/store/a.ts', typeOnly: false }]],
    ]);
    expect(folderCycles(graph)).toEqual([
      'src/config.ts → src/services/ → src/platform/ → src/config.ts (src/config.ts imports src/services/registry.ts; src/services/blog/index.ts imports src/platform/http.ts; src/platform/http.ts imports src/config.ts)',
    ]);
    expect(runtimeFileCycles(graph)).toEqual([
      'src/services/blog/store/a.ts → src/services/blog/store/b.ts → src/services/blog/store/a.ts (src/services/blog/store/a.ts imports src/services/blog/store/b.ts; src/services/blog/store/b.ts imports src/services/blog/store/a.ts)',
    ]);
  });
});
