// @ts-check
// ESLint with typescript-eslint's recommended rules (no type information: fast enough for every
// `npm test`). `npm run lint` runs it on what the kit ships and tests; src/selftest/lint.test.ts
// keeps the tree clean.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['node_modules/', 'reports/', 'src/generated/'] },
  eslint.configs.recommended,
  tseslint.configs.recommended,
  {
    rules: {
      // A leading underscore names what is left out on purpose: `const { json: _json, ...plain } = response`.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // Tests, and the reference's test kit and fault probes, read JSON bodies of many shapes.
    files: ['**/*.test.ts', 'src/testing/reference/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
