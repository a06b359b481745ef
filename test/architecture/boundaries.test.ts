// The architecture's boundaries, checked by reading the source (docs/architecture.md):
// the platform imports no service, no service imports another, and a service's tables are
// named only by its store/ folder and its migrations.ts (the platform's tables only by the
// platform). Table names are those the migration files create.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

type Owner = string; // a service's folder name, or 'platform'

interface SourceFacts {
  /** Relative import paths resolved against the repository root, e.g. 'src/services/mail/store.ts'. */
  imports: string[];
  /** Text of every string literal and template literal piece. */
  strings: string[];
}

/** Imports (static, dynamic, re-exports, type-only) and string texts of one source file. */
function readFacts(file: string, source: string): SourceFacts {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports: string[] = [];
  const strings: string[] = [];
  const addImport = (specifier: ts.Node | undefined) => {
    if (!specifier || !ts.isStringLiteralLike(specifier) || !specifier.text.startsWith('.')) return;
    imports.push(path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.text)));
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) addImport(node.moduleSpecifier);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) addImport(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) addImport(node.argument.literal);
    else if (ts.isExternalModuleReference(node)) addImport(node.expression);
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) strings.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { imports, strings };
}

/** Where a file under src/ belongs: 'platform', a service's name, or undefined (entry points, registry). */
function ownerOf(file: string): Owner | undefined {
  const parts = file.split('/');
  if (parts[0] !== 'src') return undefined;
  if (parts[1] === 'platform') return 'platform';
  if (parts[1] === 'console') return 'console';
  if (parts[1] === 'services' && parts.length > 3) return parts[2];
  return undefined;
}

/** The only places that may name an owner's tables. */
function mayNameTablesOf(file: string, owner: Owner): boolean {
  if (owner === 'platform') return file.startsWith('src/platform/');
  return file.startsWith(`src/services/${owner}/store/`) || file === `src/services/${owner}/migrations.ts`;
}

/** Tables a migration file creates (Kysely's createTable or raw CREATE TABLE). */
function tablesCreatedIn(source: string): string[] {
  const found = new Set<string>();
  for (const m of source.matchAll(/createTable\(\s*['"`](\w+)['"`]/g)) found.add(m[1]!);
  for (const m of source.matchAll(/CREATE TABLE\s+(?:IF NOT EXISTS\s+)?["`]?(\w+)/gi)) found.add(m[1]!);
  return [...found];
}

/** Every boundary a file crosses, as readable lines; empty when it keeps to its side. */
function violations(file: string, source: string, tables: ReadonlyMap<string, Owner>): string[] {
  const owner = ownerOf(file);
  const { imports, strings } = readFacts(file, source);
  const found: string[] = [];
  for (const target of imports) {
    const targetOwner = ownerOf(target);
    if (owner === 'platform' && target.startsWith('src/services/')) found.push(`${file}: the platform imports ${target}`);
    // The console reaches services over their APIs and declared hooks (through the registry), never their code.
    if (owner === 'console' && targetOwner && targetOwner !== 'platform' && targetOwner !== 'console') found.push(`${file}: the console imports ${target}`);
    if (owner && owner !== 'platform' && owner !== 'console' && targetOwner && targetOwner !== 'platform' && targetOwner !== owner) {
      found.push(`${file}: service ${owner} imports ${target}`);
    }
  }
  const named = new Set<string>();
  for (const text of strings) for (const word of text.match(/\b\w+\b/g) ?? []) if (tables.has(word)) named.add(word);
  for (const table of named) {
    if (!mayNameTablesOf(file, tables.get(table)!)) found.push(`${file}: names table ${table} (owned by ${tables.get(table)})`);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.posix.join(path.relative(ROOT, e.parentPath).split(path.sep).join('/'), e.name))
    .sort();
}

function tableOwners(files: string[]): Map<string, Owner> {
  const owners = new Map<string, Owner>();
  for (const file of files) {
    const owner = file === 'src/platform/migrations.ts' ? 'platform' : /^src\/services\/(\w+)\/migrations\.ts$/.exec(file)?.[1];
    if (!owner) continue;
    for (const table of tablesCreatedIn(readFileSync(path.join(ROOT, file), 'utf8'))) owners.set(table, owner);
  }
  return owners;
}

const files = sourceFiles('src');
const tables = tableOwners(files);
const found = new Map(files.map((f) => [f, violations(f, readFileSync(path.join(ROOT, f), 'utf8'), tables)]));
const crossings = (keep: (line: string) => boolean) => [...found.values()].flat().filter(keep);

describe('architecture boundaries', () => {
  it('finds the tables of every service and of the platform, each prefixed with its owner', () => {
    const owners = new Set(tables.values());
    for (const owner of ['platform', 'blog', 'mail', 'community', 'home', 'workflow']) expect(owners).toContain(owner);
    for (const [table, owner] of tables) expect(table.startsWith(`${owner}_`), `${table} is created by ${owner}`).toBe(true);
  });

  it('the platform imports no service', () => {
    expect(crossings((l) => l.includes(': the platform imports '))).toEqual([]);
  });

  it('the console imports no service code (it uses their APIs and declared hooks)', () => {
    expect(crossings((l) => l.includes(': the console imports '))).toEqual([]);
  });

  it('no service imports another', () => {
    expect(crossings((l) => l.includes(': service '))).toEqual([]);
  });

  it("only a service's store/ and migrations.ts name its tables; only the platform names the platform's", () => {
    const outside = [...found].flatMap(([, lines]) => lines.filter((l) => l.includes(': names table ')));
    expect(outside).toEqual([]);
  });

  it('the scanner sees each kind of crossing in a synthetic file', () => {
    const demoTables = new Map<string, Owner>([['blog_posts', 'blog'], ['platform_jobs', 'platform']]);
    const platformFile = `import { x } from '../services/blog/store.js';\nexport const q = (db) => db.selectFrom('blog_posts');`;
    expect(violations('src/platform/demo.ts', platformFile, demoTables)).toEqual([
      'src/platform/demo.ts: the platform imports src/services/blog/store.js',
      'src/platform/demo.ts: names table blog_posts (owned by blog)',
    ]);
    const serviceFile = "const m = await import('../../blog/index.js');\nsql`SELECT * FROM platform_jobs`;";
    expect(violations('src/services/mail/routes/x.ts', serviceFile, demoTables)).toEqual([
      'src/services/mail/routes/x.ts: service mail imports src/services/blog/index.js',
      'src/services/mail/routes/x.ts: names table platform_jobs (owned by platform)',
    ]);
    expect(violations('src/services/blog/store/posts.ts', "db.updateTable('blog_posts')", demoTables)).toEqual([]);
    // Words that only contain a table's name are not the table.
    expect(violations('src/services/mail/x.ts', "'blog_posts_slug'; // blog_posts", demoTables)).toEqual([]);
  });
});
