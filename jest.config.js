// One jest run over every project. Each project's tests live beside it; suites that need a
// database create their own (see migrations/src/testing), so files run in parallel safely.
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

const moduleNameMapper = {
  '^@sweatpants/domain$': '<rootDir>/libs/domain/src/index.ts',
  '^@sweatpants/tree-store$': '<rootDir>/libs/tree-store/src/index.ts',
  '^@sweatpants/agent-runtime$': '<rootDir>/libs/agents/runtime/src/index.ts',
  '^@sweatpants/agent-runtime/host$': '<rootDir>/libs/agents/runtime/src/host.ts',
  '^@sweatpants/agent-runtime/offline$': '<rootDir>/libs/agents/runtime/src/offline/index.ts',
  '^@sweatpants/agent-runtime/testing$': '<rootDir>/libs/agents/runtime/src/testing/index.ts',
  '^@sweatpants/agent-claude$': '<rootDir>/libs/agents/claude/src/index.ts',
  '^@sweatpants/agent-claude/testing$': '<rootDir>/libs/agents/claude/src/testing/index.ts',
  '^@sweatpants/agent-tidying$': '<rootDir>/libs/agents/tidying/src/index.ts',
  '^@sweatpants/agent-concierge$': '<rootDir>/libs/agents/concierge/src/index.ts',
  '^@sweatpants/agent-donations$': '<rootDir>/libs/agents/donations/src/index.ts',
  '^@sweatpants/agent-assistant$': '<rootDir>/libs/agents/assistant/src/index.ts',
  '^@sweatpants/product-agents$': '<rootDir>/libs/agents/product/src/index.ts',
  '^@sweatpants/migrations$': '<rootDir>/migrations/src/index.ts',
  '^@sweatpants/migrations/testing$': '<rootDir>/migrations/src/testing/index.ts',
};

const project = (name, root, extra = {}) => ({
  displayName: name,
  rootDir: __dirname,
  roots: [`<rootDir>/${root}`],
  testMatch: ['**/*.spec.ts'],
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j)s$': swc },
  moduleNameMapper,
  ...extra,
});

// jose and openid-client (with its oauth4webapi) are ESM only: Node requires them natively, but
// jest's own require cannot, so swc compiles them.
const esmOnly = { transformIgnorePatterns: ['/node_modules/(?!(jose|openid-client|oauth4webapi)/)'] };

// The Angular client: jest-preset-angular compiles components (templates, styles) through the
// client's own tsconfig, in jsdom, zoneless as the app runs.
const { createCjsPreset } = require('jest-preset-angular/presets');
const web = {
  ...createCjsPreset({ tsconfig: '<rootDir>/apps/web/tsconfig.spec.json' }),
  displayName: 'web',
  rootDir: __dirname,
  roots: ['<rootDir>/apps/web/src'],
  testMatch: ['**/*.spec.ts'],
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/apps/web/src/test-setup.ts'],
  moduleNameMapper,
};

module.exports = {
  // Hooks start real databases, apis and worker processes, which take seconds on a busy machine
  // (CI's two cores); a hung test or hook still fails, at 30 s rather than 5.
  testTimeout: 30_000,
  // A worker runs many suites in turn, and each leaves some of its module registry behind: by the
  // end of a full run a worker held 2 GB after a full collection, and every collection (the
  // idle-runners spec times one) slowed the suites after it. A worker past this is started afresh.
  workerIdleMemoryLimit: '1GB',
  projects: [
    project('domain', 'libs/domain'),
    project('tree-store', 'libs/tree-store'),
    project('agent-runtime', 'libs/agents/runtime'),
    project('agent-claude', 'libs/agents/claude'),
    project('agent-tidying', 'libs/agents/tidying'),
    project('agent-concierge', 'libs/agents/concierge'),
    project('agent-donations', 'libs/agents/donations'),
    project('agent-assistant', 'libs/agents/assistant'),
    project('product-agents', 'libs/agents/product'),
    project('chat', 'apps/chat'),
    project('migrations', 'migrations'),
    project('api', 'apps/api', esmOnly),
    web,
  ],
};
