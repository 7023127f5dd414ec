// `npm test`: check formatting, lint and type-check every project (the module-boundary rule included), check that no
// folder reaches itself through its imports (`npm run check:cycles`, .dependency-cruiser.cjs), then every
// jest suite against the real PostgreSQL and Redis, then the browser scenarios (`npm run e2e`: the web client in
// Debian's Chromium against the real api). Ends with one summary line, `tests: N passed, N failed`, that CI reads.
// SKIP_LINT=1 skips the first step, SKIP_E2E=1 the last; arguments go to jest.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { teeChild } from './tee-child.mjs';

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
  const cycles = await run('npm', ['run', '--silent', 'check:cycles']);
  if (cycles !== 0) {
    console.error('tests: a folder or file reaches itself through its imports (see above)');
    process.exit(cycles);
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
/** The counts a runner's last `<name>: N passed, M failed` line gives, or one failure when it gave none. */
function countsFrom(output, name) {
  const match = [...output.matchAll(new RegExp(`^${name}: (\\d+) passed, (\\d+) failed`, 'gm'))].at(-1);
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : { passed: 0, failed: 1 };
}

let jest;
try {
  const summary = JSON.parse(readFileSync(results, 'utf8'));
  jest = { passed: summary.numPassedTests, failed: summary.numFailedTests };
} catch {
  jest = { passed: 0, failed: 1 };
}

let e2e = { passed: 0, failed: 0 };
let e2eCode = 0;
if (!process.env.SKIP_E2E && extra.length === 0) {
  const child = await teeChild('node', ['scripts/e2e.mjs'], root);
  e2eCode = child.code;
  e2e = countsFrom(child.output, 'e2e');
}

console.log(`tests: ${jest.passed + e2e.passed} passed, ${jest.failed + e2e.failed} failed`);
process.exit(code !== 0 ? code : e2eCode);
