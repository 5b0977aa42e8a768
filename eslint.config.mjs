// One lint configuration for the site and every workspace package.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import nodePlugin from 'eslint-plugin-n';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'build/**',
      '.docusaurus/**',
      // The dev server's generated files in tests/e2e/dev-server.spec.ts.
      '.cache/e2e-dev-server/**',
      'api/**',
      'static/**',
      'test-results/**',
      'playwright-report/**',
      // Temporary folders that tests write inside the repository (so that their samples resolve
      // the workspace's packages) and remove; lint may run while they exist (npm test runs it
      // beside the test phases).
      '.code-samples-*/**',
      'packages/create-weft/.variants-check-*/**',
      'packages/create-weft/.dev-check-*/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Every package a file imports is declared in its nearest package.json: an undeclared one
    // works only while npm happens to hoist it, and breaks on an upgrade or another installer.
    files: ['**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    plugins: { n: nodePlugin },
    rules: {
      'n/no-extraneous-import': 'error',
      'n/no-extraneous-require': 'error',
    },
  },
  {
    // The samples and the probe run from the root's install; their own package.json only makes
    // them modules, so tests/unit/sample-imports-declared.test.ts holds their imports to the
    // root's. A scaffolded project's imports are declared by the package.json that create-weft
    // writes for it (OTHER_DEPENDENCIES, WEFT_PACKAGES).
    files: ['examples/**', 'bench/probe/**', 'packages/create-weft/templates/**'],
    rules: { 'n/no-extraneous-import': 'off', 'n/no-extraneous-require': 'off' },
  },
  {
    // Library code logs through the structured logger, never the console.
    files: ['packages/*/src/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { react, 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    settings: { react: { version: 'detect' } },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
