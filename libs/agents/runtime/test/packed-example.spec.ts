import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

/**
 * The framework as a developer outside this workspace gets it: `npm run pack`'s tarballs installed
 * by npm in a project of its own (in a temporary folder, removed after), an agent written there from
 * the runtime's README, typechecked under strict TypeScript and run in the terminal on the offline
 * model. SLOW: it packs the libraries (tsc, three times), installs them and their dependencies
 * (the npm registry, or npm's cache when it has them) and compiles the example: a minute or two.
 */
const root = resolve(__dirname, '../../../..');
const rootPackage = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const run = promisify(execFile);
// Generous: on a busy machine packing alone takes a minute or more.
const SLOW = 600_000;

/**
 * The example project's one file: the agent of the README's "Installing" section, as written there
 * (a packing helper with a mode, a tool and offline rules, saying each message it is given).
 */
function agentFromReadme(): string {
  const readme = readFileSync(join(root, 'libs/agents/runtime/README.md'), 'utf8');
  const installing = readme.slice(readme.indexOf('\n## Installing'));
  const code = /```ts\n([\s\S]*?)\n```/.exec(installing)?.[1];
  if (!code) throw new Error('the README has no agent under "## Installing"');
  return code;
}

const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
  },
  files: ['agent.ts', 'entries.ts'],
};

/** Every entry point of every package, so that all their declarations are checked and all load. */
const ENTRIES = [
  '@sweatpants/domain',
  '@sweatpants/agent-runtime',
  '@sweatpants/agent-runtime/host',
  '@sweatpants/agent-runtime/offline',
  '@sweatpants/agent-runtime/testing',
  '@sweatpants/agent-claude',
  '@sweatpants/agent-claude/testing',
];

describe('the packed libraries in a project of their own (slow: packs, installs, compiles)', () => {
  let project: string;
  let packages: string;

  /** Runs `command` in the example project; a failure shows what it printed. */
  async function inProject(command: string, args: string[], env: NodeJS.ProcessEnv = process.env) {
    try {
      return await run(command, args, { cwd: project, env, timeout: SLOW, maxBuffer: 16 * 1024 * 1024 });
    } catch (error) {
      const failed = error as { stdout?: string; stderr?: string; message: string };
      throw new Error(
        `${command} ${args.join(' ')} failed:\n${failed.stdout ?? ''}${failed.stderr ?? failed.message}`,
      );
    }
  }

  beforeAll(async () => {
    project = mkdtempSync(join(tmpdir(), 'sweatpants-packed-'));
    packages = join(project, 'packages');
    await run('node', [join(root, 'scripts/pack.mjs'), packages], { cwd: root, timeout: SLOW });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'packing-helper', private: true, type: 'module' }),
    );
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    writeFileSync(join(project, 'agent.ts'), agentFromReadme());
    writeFileSync(
      join(project, 'entries.ts'),
      ENTRIES.map((entry, i) => `export * as entry${i} from '${entry}';\n`).join(''),
    );
    const tarballs = readdirSync(packages).map((file) => `./packages/${file}`);
    await inProject('npm', [
      'install',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      ...tarballs,
      `zod@${rootPackage.dependencies['zod']}`,
      `typescript@${rootPackage.devDependencies['typescript']}`,
      `@types/node@${rootPackage.devDependencies['@types/node']}`,
    ]);
  }, SLOW);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  it('packs the domain, the runtime and the Claude adapter, each ESM with an exports map of its entry points', () => {
    expect(readdirSync(packages).sort()).toEqual([
      'sweatpants-agent-claude-0.1.0.tgz',
      'sweatpants-agent-runtime-0.1.0.tgz',
      'sweatpants-domain-0.1.0.tgz',
    ]);
    const installed = (name: string) => join(project, 'node_modules/@sweatpants', name);
    const manifest = (name: string) =>
      JSON.parse(readFileSync(join(installed(name), 'package.json'), 'utf8')) as {
        type: string;
        exports: Record<string, { types: string; default: string }>;
        dependencies: Record<string, string>;
      };
    const runtime = manifest('agent-runtime');
    expect(runtime.type).toBe('module');
    expect(Object.keys(runtime.exports)).toEqual(['.', './host', './offline', './testing']);
    expect(runtime.dependencies).toMatchObject({ '@sweatpants/domain': '0.1.0', zod: expect.any(String) });
    expect(Object.keys(manifest('agent-claude').exports)).toEqual(['.', './testing']);
    for (const name of ['domain', 'agent-runtime', 'agent-claude']) {
      const { exports } = manifest(name);
      for (const entry of Object.values(exports)) {
        expect(existsSync(join(installed(name), entry.default))).toBe(true);
        expect(existsSync(join(installed(name), entry.types))).toBe(true);
      }
      // Declaration maps lead to the TypeScript the package carries (go to definition).
      const map = join(installed(name), exports['.']!.types.replace(/\.d\.ts$/, '.d.ts.map'));
      const { sources } = JSON.parse(readFileSync(map, 'utf8')) as { sources: string[] };
      expect(sources).toEqual(['../src/index.ts']);
      expect(existsSync(join(dirname(map), sources[0]!))).toBe(true);
      expect(existsSync(join(installed(name), 'LICENSE'))).toBe(true);
      expect(existsSync(join(installed(name), 'README.md'))).toBe(true);
    }
  });

  it(
    "typechecks the README's first agent, and every entry point's declarations, under strict TypeScript (NodeNext)",
    async () => {
      const { stdout } = await inProject('node', [
        'node_modules/typescript/bin/tsc',
        '--noEmit',
        '--strict',
        '-p',
        '.',
      ]);
      expect(stdout).toBe('');
    },
    SLOW,
  );

  it(
    'runs a session on the offline model in the terminal, printing what the agent says',
    async () => {
      // The test above checked it: emitting alone is quicker.
      await inProject('node', ['node_modules/typescript/bin/tsc', '--noCheck', '-p', '.']);
      const env = { ...process.env };
      delete env['ANTHROPIC_API_KEY'];
      const { stdout } = await inProject('node', ['agent.js', 'Oslo', 'Lisbon'], env);
      expect((await inProject('node', ['entries.js'])).stderr).toBe('');
      expect(stdout.trim().split('\n')).toEqual([
        'you> Oslo',
        'agent> Let me see.',
        'agent> For Oslo, pack a warm coat and gloves.',
        'you> Lisbon',
        'agent> Let me see.',
        'agent> For Lisbon, pack shorts and sun cream.',
      ]);
    },
    SLOW,
  );
});
