// ESLint for the whole tree: typescript-eslint's type-checked recommendations, plus a local
// rule for exports nothing imports. Run with `npm run lint`; .ci/run fails on any finding.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import noUnusedExports from './eslint-rules/no-unused-exports.js';
import guest from './eslint.guest.js';

// The browser globals the console's scripts use.
const BROWSER_GLOBALS = [
  'window',
  'document',
  'EventSource',
  'WebSocket',
  'fetch',
  'console',
  'setTimeout',
  'clearTimeout',
  'URL',
  'URLSearchParams',
  'FormData',
  'HTMLElement',
  'CustomEvent',
  'navigator',
  'location',
  'history',
  'localStorage',
  'requestAnimationFrame',
];

// The few Node globals the plain .js/.mjs scripts use (TypeScript files get them from @types/node).
const NODE_GLOBALS = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'structuredClone',
    'AbortController',
    'fetch',
    'performance',
    'TextEncoder',
    'TextDecoder',
    'globalThis',
  ].map((name) => [name, 'readonly']),
);

export default tseslint.config(
  { ignores: ['dist/**', 'data/**', '.tmp/**', 'node_modules/**', 'test/fixtures/**', 'docs/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { hamlet: { rules: { 'no-unused-exports': noUnusedExports } } },
    rules: {
      // The bugs this linter is here for: errors.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // The TypeScript version below covers plain JavaScript too, with the same `_` exemption.
      'no-unused-vars': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          args: 'after-used',
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrors: 'none',
          ignoreRestSiblings: true,
        },
      ],
      'hamlet/no-unused-exports': 'error',
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Rejecting with a caught error or an AbortSignal's reason passes the original on.
      '@typescript-eslint/prefer-promise-reject-errors': [
        'error',
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],

      // Off: they would rewrite hundreds of lines without finding bugs here. Request bodies,
      // workflow items and expression values are untyped JSON by nature, so the any-family
      // fires on every access; String() of unknown values is n8n's documented coercion;
      // methods stored as function-valued fields (ctx.now, services.fetch) are bound already.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // bench/run.ts loads each benchmark's default export by a computed path.
    files: ['bench/*.bench.ts'],
    rules: { 'hamlet/no-unused-exports': ['error', { ignoreExports: ['default'] }] },
  },
  {
    // Plain JavaScript (scripts, benchmark baseline, this config's local rules): not in the
    // TypeScript project, so no type-aware rules.
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: NODE_GLOBALS },
    rules: { 'hamlet/no-unused-exports': 'off' },
  },
  {
    // The console's browser scripts: the browser's globals, not Node's.
    files: ['src/console/static/**/*.js'],
    languageOptions: { globals: Object.fromEntries(BROWSER_GLOBALS.map((g) => [g, 'readonly'])) },
  },
  // The workflow sandbox's guest scripts (QuickJS, not Node): their own globals and rules.
  ...guest,
);
