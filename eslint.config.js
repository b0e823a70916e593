// The linter: ESLint's and typescript-eslint's recommended rules on the TypeScript sources, tests
// and benchmarks; Astro components are checked by `astro check`. Each rule turned off says why.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', '**/.astro/', 'bench/bare-astro/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      // Control characters are what the checks on names, user agents and e-mail headers look for.
      'no-control-regex': 'off',
      // Parameters and caught errors named `_…` are kept on purpose (a signature, a catch that only recovers).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Configuration files run on Node, with its globals.
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { URL: 'readonly', process: 'readonly', console: 'readonly' } },
  },
  {
    // The discovery documents and the tests walk untyped JSON (the OpenAPI description, answers) by path.
    files: ['src/discovery/**/*.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Astro's `App.Locals` is extended by declaration merging: an interface with no members of its own.
    files: ['**/*.d.ts'],
    rules: { '@typescript-eslint/no-empty-object-type': 'off' },
  },
);
