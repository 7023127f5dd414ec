// One lint config for the whole workspace. The module-boundary rule is DESIGN.md's dependency
// rule written down: domain imports nothing of ours, tree-store and agents only domain (agents
// reaches storage through its own port), web only domain, and nothing imports an app.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    ignores: ['**/node_modules', '**/dist', '**/.angular', '**/.nx', 'data', 'tmp', 'artifacts'],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // effection's Task and Future are also promises; a task is bound to its scope, so leaving
      // one unawaited loses nothing.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: ['Task', 'Future'], package: 'effection' }] },
      ],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      // An effection operation is a generator whether or not it waits on anything.
      'require-yield': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:migrations', onlyDependOnLibsWithTags: [] },
            { sourceTag: 'type:tree-store', onlyDependOnLibsWithTags: ['type:domain', 'type:migrations'] },
            { sourceTag: 'type:agents', onlyDependOnLibsWithTags: ['type:domain'] },
            {
              sourceTag: 'type:api',
              onlyDependOnLibsWithTags: ['type:domain', 'type:tree-store', 'type:agents', 'type:migrations'],
            },
            { sourceTag: 'type:web', onlyDependOnLibsWithTags: ['type:domain'] },
            { sourceTag: 'platform:browser', notDependOnLibsWithTags: ['platform:server'] },
          ],
        },
      ],
    },
  },
  {
    // A test or bench that asserts a row exists should say so with `!` and fail loudly if wrong.
    files: ['**/*.spec.ts', '**/test/**/*.ts', '**/bench/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  prettier,
];
