// One linter for the whole repository. The import rules below are the architecture
// (docs/architecture.md): each package imports only the packages below it, nothing imports in a
// circle, and tests follow the same direction, sharing their helpers through the test kit.
import js from '@eslint/js';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

/**
 * Each package of ours and the packages of ours its sources may import. Nothing else of ours is
 * reachable from it: the server never sees the language (it serves a compiled model), the client
 * never sees the server, and only the command line puts them together.
 */
const PACKAGES = {
  model: [],
  language: ['model'],
  engine: ['model'],
  server: ['model', 'engine'],
  demo: ['model', 'engine', 'server'],
  client: ['model', 'engine'],
  web: ['model', 'engine', 'server', 'client'],
  testkit: ['model', 'language', 'engine', 'server'],
  cli: ['model', 'language', 'engine', 'server', 'web', 'demo'],
};

/** What a package's tests may import besides what its sources may: the language, to compile specs, and the test kit. */
const TEST_EXTRAS = ['language', 'testkit'];

/**
 * A package's own test extras: the client's tests may seed an example's demo data (every screen in
 * every language, `i18n-screens.test.tsx`), as the browser tests do.
 */
const OWN_TEST_EXTRAS = { client: ['demo'] };

const ours = (allowed, why) => ({
  regex: `^@ninefold/(?!(${allowed.join('|') || '$^'})(/|$))`,
  message: why,
});

const nodeBuiltins = { group: ['node:*'], message: 'The engine and the model are isomorphic: no Node APIs.' };
const browserOnly = {
  group: ['fastify', 'kysely', 'node:*', 'yaml'],
  message: 'The client is a browser runtime.',
};

/** Extra restrictions of a package's sources, beyond the direction of packages. */
const OWN_RULES = {
  model: [nodeBuiltins],
  engine: [
    nodeBuiltins,
    { group: ['react', 'react-dom', 'fastify', 'kysely'], message: 'The engine is the framework-free core.' },
  ],
  server: [
    {
      group: ['react', 'react-dom'],
      message: 'The server is the API: the web app is hosted by @ninefold/web.',
    },
  ],
  client: [browserOnly],
};

function direction(pkg) {
  const allowed = PACKAGES[pkg];
  const tests = [...new Set([pkg, ...allowed, ...TEST_EXTRAS, ...(OWN_TEST_EXTRAS[pkg] ?? [])])];
  const sourceRule = [
    'error',
    {
      patterns: [
        ours(
          allowed,
          `${pkg} may import only ${allowed.join(', ') || 'no package of ours'} (eslint.config.js, docs/architecture.md).`,
        ),
        ...(OWN_RULES[pkg] ?? []),
      ],
    },
  ];
  return [
    { files: [`packages/${pkg}/src/**`], rules: { 'no-restricted-imports': sourceRule } },
    {
      files: [`packages/${pkg}/test/**`],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              ours(
                tests,
                `${pkg}'s tests may import ${tests.join(', ')} (shared helpers live in the test kit).`,
              ),
            ],
          },
        ],
      },
    },
  ];
}

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
    // no circles inside a package, and no reaching into another package by a relative path
    files: ['packages/*/src/**/*.{ts,tsx}', 'packages/*/test/**/*.{ts,tsx}', 'e2e/**/*.ts', 'faults/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/extensions': ['.ts', '.tsx', '.js'],
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
          extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
        }),
      ],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-relative-packages': 'error',
    },
  },
  ...Object.keys(PACKAGES).flatMap(direction),
);
