// One lint config for the whole workspace. The module-boundary rule is DESIGN.md's dependency
// rule written down: domain imports nothing of ours; tree-store only domain; the agent runtime only
// domain (it reaches storage through its own port); an agent the runtime and domain, never another
// agent or a model adapter; the model adapters the runtime; the product's registry of agents its
// agents; web only domain; and nothing imports an app.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const AGENT_LIBS = ['type:agent-runtime', 'type:agent-model', 'type:agent', 'type:agent-registry'];

/** The dependency rule, with `extra` tags a source tag may also depend on (test files). */
function moduleBoundaries(extra = {}) {
  const rule = (sourceTag, tags) => ({
    sourceTag,
    onlyDependOnLibsWithTags: [...tags, ...(extra[sourceTag] ?? [])],
  });
  return [
    'error',
    {
      enforceBuildableLibDependency: false,
      allow: [],
      depConstraints: [
        rule('type:domain', []),
        rule('type:migrations', []),
        rule('type:tree-store', ['type:domain', 'type:migrations']),
        rule('type:agent-runtime', ['type:domain']),
        rule('type:agent-model', ['type:domain', 'type:agent-runtime']),
        rule('type:agent', ['type:domain', 'type:agent-runtime']),
        rule('type:agent-registry', ['type:domain', 'type:agent-runtime', 'type:agent']),
        rule('type:chat', ['type:domain', ...AGENT_LIBS]),
        rule('type:api', ['type:domain', 'type:tree-store', 'type:migrations', ...AGENT_LIBS]),
        rule('type:web', ['type:domain']),
        { sourceTag: 'platform:browser', notDependOnLibsWithTags: ['platform:server'] },
      ],
    },
  ];
}

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
      '@nx/enforce-module-boundaries': moduleBoundaries(),
    },
  },
  {
    // An agent's specs drive it through the Claude adapter against the fake Anthropic server too;
    // its code still may not name a model adapter.
    files: ['libs/agents/*/test/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': moduleBoundaries({ 'type:agent': ['type:agent-model'] }),
    },
  },
  {
    // The runtime's entry points are per audience (libs/agents/runtime/README.md): an agent's own
    // code is written with the author's API and /offline, never with what runs it. Its specs drive
    // it through a Runner, as a host does, and may.
    files: ['libs/agents/*/src/**/*.ts'],
    ignores: ['libs/agents/{runtime,claude,product}/**', '**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@sweatpants/agent-runtime/host',
              message:
                'An agent takes what it needs from @sweatpants/agent-runtime; /host is for programs that run agents.',
            },
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
