// `npm test`: check formatting, lint and type-check every project (the module-boundary rule included), then every
// jest suite against the real PostgreSQL and Redis. Ends with one summary line,
// `tests: N passed, N failed`, that CI reads.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const extra = process.argv.slice(2);

function run(command, args, env = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

const nx = { NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
if (!process.env.SKIP_LINT) {
  const format = await run('npx', ['prettier', '--check', '--log-level=warn', '.']);
  if (format !== 0) {
    console.error('tests: formatting differs from prettier (npm run format fixes it)');
    process.exit(format);
  }
  const lint = await run('npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', '--outputStyle=static'], nx);
  if (lint !== 0) {
    console.error('tests: lint or typecheck failed');
    process.exit(lint);
  }
}

mkdirSync(join(root, 'tmp'), { recursive: true });
const results = join(root, 'tmp/jest-results.json');
// PGlite loads its WebAssembly through a dynamic import, which jest's sandbox allows only with
// this flag.
const code = await run('npx', ['jest', '--maxWorkers=2', '--json', `--outputFile=${results}`, ...extra], {
  NODE_OPTIONS:
    `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings=ExperimentalWarning`.trim(),
});
try {
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  console.log(`tests: ${summary.numPassedTests} passed, ${summary.numFailedTests} failed`);
} catch {
  console.log('tests: 0 passed, 1 failed');
}
process.exit(code);
