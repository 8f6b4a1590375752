// One linter for the whole repository. The import rules below are the architecture of DESIGN.md:
// data flows spec → engine → server/client → cli, and imports may only follow it.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const noNodeBuiltins = { group: ['node:*'], message: 'The engine is isomorphic: no Node APIs.' };

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'coverage/**', 'bench/**/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        console: 'readonly',
        process: 'readonly',
        URL: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        performance: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        structuredClone: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportDeclaration[source.value=/^\\.\\.?\\/(index(\\.js)?)?$/]',
          message: 'Import the module itself, not this package’s own barrel.',
        },
      ],
    },
  },
  {
    files: ['packages/spec/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@ninefold/*'],
              message: 'spec is the source of the flow: it imports no other package of ours.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/engine/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ninefold/spec',
              message: 'The engine sees the compiled model only: import type from @ninefold/spec/model.',
            },
          ],
          patterns: [
            noNodeBuiltins,
            {
              group: [
                'react',
                'react-dom',
                'fastify',
                'kysely',
                '@ninefold/server',
                '@ninefold/client',
                '@ninefold/cli',
              ],
              message: 'The engine is the framework-free core.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/client/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@ninefold/spec',
              message: 'The client never sees the parser: use the model from /api/model.',
            },
          ],
          patterns: [
            {
              group: ['fastify', 'kysely', '@ninefold/server', '@ninefold/cli', 'node:*', 'yaml'],
              message: 'The client is a browser runtime.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['packages/server/src/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@ninefold/client', '@ninefold/cli', 'react'],
              message: 'The server does not depend on the client or the CLI.',
            },
          ],
        },
      ],
    },
  },
);
