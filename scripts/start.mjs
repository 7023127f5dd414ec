// `npm start`: builds the web client when its build is missing or stale, then runs the api from
// its TypeScript sources on one port (DESIGN.md "Running it"). Signals go to the api, whose exit
// code becomes ours.
//
// The api runs under @swc-node/register, which compiles each file as it is required. It takes its
// compiler options from SWC_NODE_PROJECT: apps/api/tsconfig.json extends tsconfig.base.json, whose
// experimentalDecorators + emitDecoratorMetadata give NestJS its constructor-injection metadata and
// whose `paths` turn '@sweatpants/*' imports into relative requires. Without it (there is no root
// tsconfig.json) swc-node would silently compile without decorator metadata and aliases.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { constants } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const webIndex = join(root, 'dist/apps/web/browser/index.html');
// What the web bundle is built from: the app and the domain types it imports.
const webSources = ['apps/web', 'libs/domain/src'].map((dir) => join(root, dir));
const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];

let current = null;
// Between the build and the api nothing runs to forward to: stop as the signal would have.
const forward = (signal) => (current ? current.kill(signal) : process.exit(128 + constants.signals[signal]));
for (const signal of signals) process.on(signal, forward);

function log(message) {
  console.log(`[start] ${message}`);
}

/** Runs a command to its end; resolves with its exit code, or re-raises the signal that killed it. */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    current = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: 'inherit' });
    current.on('error', reject);
    current.on('exit', (code, signal) => {
      current = null;
      if (code !== null) return resolve(code);
      for (const s of signals) process.off(s, forward);
      process.kill(process.pid, signal);
    });
  });
}

/** The newest modification time under `dir`, skipping dependency and cache folders. */
function newestMtime(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function webBuildReason() {
  if (!existsSync(webIndex)) return 'the web client is not built';
  const built = statSync(webIndex).mtimeMs;
  const stale = webSources.some((dir) => existsSync(dir) && newestMtime(dir) > built);
  return stale ? 'the web client sources changed since the last build' : null;
}

async function buildWebClient() {
  if (process.env.WEB_DIST) return log(`WEB_DIST is set: serving ${process.env.WEB_DIST} as it is`);
  const reason = webBuildReason();
  if (!reason) return log('the web client is up to date');
  log(`${reason}: building it (nx run web:build)`);
  const code = await run('npx', ['nx', 'run', 'web:build'], { NX_DAEMON: 'false', NX_NO_CLOUD: 'true' });
  if (code !== 0) {
    log(`warning: the web build failed (exit ${code}); starting the api with whatever is in dist`);
    return;
  }
  // Nx may restore the output from its cache with the old times; mark this build as current.
  if (existsSync(webIndex)) utimesSync(webIndex, new Date(), new Date());
}

await buildWebClient();
const code = await run(process.execPath, ['-r', '@swc-node/register', 'apps/api/src/main.ts'], {
  SWC_NODE_PROJECT: process.env.SWC_NODE_PROJECT ?? join(root, 'apps/api/tsconfig.json'),
});
process.exit(code);
