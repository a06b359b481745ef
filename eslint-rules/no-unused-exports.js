// Reports exports that no other file of the TypeScript program imports. An export used only in
// its own file should lose its `export`; one used nowhere should go. It reads the program that
// typescript-eslint already built for the type-aware rules, so it costs one walk over the
// imports of the program, done once per lint run.
//
// A type (interface or alias) that its own file uses, say in an exported function's signature,
// is part of that file's surface and stays exported; a type used nowhere is reported.
//
// Counted as a use: a named or default import, `export { x } from` (the re-exported name
// counts through the file that imports it), and, for a whole module, `import * as`,
// `export * as`, a dynamic `import('…')` with a literal path, and `import('…')` types.
import ts from 'typescript';

/** @type {WeakMap<ts.Program, { symbols: Set<ts.Symbol>, wholeFiles: Set<string> }>} */
const usesByProgram = new WeakMap();

/** The symbol an alias (import or re-export) finally stands for. */
function resolve(checker, symbol) {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

function moduleFile(checker, specifier) {
  const module = checker.getSymbolAtLocation(specifier);
  const declaration = module?.valueDeclaration;
  return declaration && ts.isSourceFile(declaration) ? declaration.fileName : undefined;
}

function collectUses(program) {
  const checker = program.getTypeChecker();
  const symbols = new Set();
  const wholeFiles = new Set();
  const useName = (name) => {
    const symbol = checker.getSymbolAtLocation(name);
    if (symbol) symbols.add(resolve(checker, symbol));
  };
  const useWhole = (specifier) => {
    const file = moduleFile(checker, specifier);
    if (file) wholeFiles.add(file);
  };

  const visit = (node) => {
    if (ts.isImportDeclaration(node) && node.importClause) {
      const { name, namedBindings } = node.importClause;
      if (name) useName(name);
      if (namedBindings && ts.isNamespaceImport(namedBindings)) useWhole(node.moduleSpecifier);
      if (namedBindings && ts.isNamedImports(namedBindings)) namedBindings.elements.forEach((e) => useName(e.name));
      return;
    }
    if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      if (node.exportClause && ts.isNamespaceExport(node.exportClause)) useWhole(node.moduleSpecifier);
      return;
    }
    if (ts.isImportEqualsDeclaration(node)) {
      useName(node.name);
      return;
    }
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [specifier] = node.arguments;
      if (specifier && ts.isStringLiteralLike(specifier)) useWhole(specifier);
    }
    if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      useWhole(node.argument.literal);
    }
    ts.forEachChild(node, visit);
  };

  for (const file of program.getSourceFiles()) {
    if (file.isDeclarationFile || program.isSourceFileFromExternalLibrary(file)) continue;
    visit(file);
  }
  return { symbols, wholeFiles };
}

/** Symbols the file itself refers to, other than where it declares them. */
function localReferences(checker, file) {
  const symbols = new Set();
  const visit = (node) => {
    if (ts.isIdentifier(node) && !(node.parent && ts.getNameOfDeclaration(node.parent) === node)) {
      const symbol = checker.getSymbolAtLocation(node);
      if (symbol) symbols.add(symbol);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return symbols;
}

const isTypeOnly = (symbol) => !(symbol.flags & ts.SymbolFlags.Value) && !(symbol.flags & ts.SymbolFlags.Alias);

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: { description: 'Exports that no other file imports' },
    schema: [
      {
        type: 'object',
        properties: { ignoreExports: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      unused: "'{{name}}' is exported but no other file imports it: drop the export, or the code if nothing uses it.",
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    const program = services?.program;
    if (!program) return {};
    const ignored = new Set(context.options[0]?.ignoreExports ?? []);
    return {
      Program() {
        const checker = program.getTypeChecker();
        const file = program.getSourceFile(context.physicalFilename);
        const module = file && checker.getSymbolAtLocation(file);
        if (!module) return;
        let uses = usesByProgram.get(program);
        if (!uses) usesByProgram.set(program, (uses = collectUses(program)));
        if (uses.wholeFiles.has(file.fileName)) return;

        let local;
        for (const exported of checker.getExportsOfModule(module)) {
          if (ignored.has(exported.getName())) continue;
          // Only what this file declares or re-exports by name; `export *` names belong to
          // the file they come from, which is checked on its own.
          const declaration = exported.declarations?.find((d) => d.getSourceFile() === file);
          if (!declaration) continue;
          if (uses.symbols.has(resolve(checker, exported))) continue;
          if (isTypeOnly(exported) && (local ??= localReferences(checker, file)).has(exported)) continue;
          const at = ts.getNameOfDeclaration(declaration) ?? declaration;
          const start = file.getLineAndCharacterOfPosition(at.getStart(file));
          const end = file.getLineAndCharacterOfPosition(at.getEnd());
          context.report({
            loc: {
              start: { line: start.line + 1, column: start.character },
              end: { line: end.line + 1, column: end.character },
            },
            messageId: 'unused',
            data: { name: exported.getName() },
          });
        }
      },
    };
  },
};
