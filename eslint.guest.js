// ESLint configuration for the workflow sandbox's guest code (src/services/workflow/expressions/guest):
// scripts evaluated inside QuickJS, not modules, with only the language's built-ins (ecmaVersion
// brings them) and what the host defines; guest/globals.d.ts declares the same to tsc. Spread it
// into eslint.config.js after the TypeScript blocks. It is not type-aware: the guest has its own
// tsconfig (npm run typecheck), so type-aware rules are off for these files.
import js from '@eslint/js';

const GUEST = 'src/services/workflow/expressions/guest';

export default [
  {
    files: [`${GUEST}/**/*.js`],
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'script',
      globals: { __hamletHost: 'readonly', __hamlet: 'readonly', InternalError: 'readonly' },
    },
    rules: {
      ...js.configs.recommended.rules,
      // helpers.js and freeze-graph.js declare, at their top level, names that the files they are
      // put together with use (sandbox/guest-scripts.ts).
      '@typescript-eslint/no-unused-vars': 'off',
      // Methods written as plain functions keep their object in a local (`const self = this`).
      '@typescript-eslint/no-this-alias': 'off',
      'no-unused-vars': ['error', { vars: 'local', args: 'none', caughtErrors: 'none' }],
    },
  },
  {
    // sandbox/guest-scripts.ts wraps the extension files in functions that give them these names.
    files: [`${GUEST}/extensions/*.js`],
    languageOptions: { globals: { H: 'readonly', luxon: 'readonly' } },
  },
  {
    files: [`${GUEST}/extensions/*.js`],
    ignores: [`${GUEST}/extensions/helpers.js`],
    languageOptions: {
      globals: { ExpressionError: 'readonly', define: 'readonly', fail: 'readonly', codec: 'readonly', isPlainObject: 'readonly', deepEqual: 'readonly' },
    },
  },
  // Globals of a script are declared with `declare var` (let/const would not be on globalThis).
  { files: [`${GUEST}/globals.d.ts`], rules: { 'no-var': 'off' } },
  { files: [`${GUEST}/harden.js`], languageOptions: { globals: { freezeGraph: 'readonly' } } },
];
