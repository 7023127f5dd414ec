import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { JWT_SECRET, type TestApi } from './test-api';

const ROOT = resolve(__dirname, '../../../..');
const ENTRIES = { api: 'apps/api/src/main.ts', worker: 'apps/api/src/worker.ts' } as const;
const START_TIMEOUT_MS = 120_000;

/**
 * An api or worker as a process of its own, started from its sources as `npm start` and
 * `npm run worker` run them: for what must happen at a process's start (OpenTelemetry's SDK
 * patches modules as they load, which a process that loaded them already cannot undo).
 */
export interface OwnProcess extends Pick<TestApi, 'base' | 'url'> {
  /** what it wrote to stdout and stderr so far */
  output(): string;
  /** SIGTERM, and resolves once it exited (its shutdown ran: spans flushed, jobs finished) */
  stop(): Promise<void>;
}

/** Starts `role` with `env` over this process's environment; resolves once it answers on its port. */
export async function startOwnProcess(
  role: keyof typeof ENTRIES,
  env: Record<string, string>,
): Promise<OwnProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['-r', '@swc-node/register', ENTRIES[role]], {
    cwd: ROOT,
    env: {
      ...process.env,
      JWT_SECRET,
      WEB_DIST: '/nonexistent',
      SWC_NODE_PROJECT: join(ROOT, 'apps/api/tsconfig.json'),
      ANTHROPIC_API_KEY: '',
      GC_EVERY_MINUTES: 'off',
      ...(role === 'api' ? { PORT: String(port) } : { WORKER_PORT: String(port), WORKER: 'on' }),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const base = `http://127.0.0.1:${port}`;
  const probe = role === 'api' ? `${base}/api/health` : `${base}/api/health/live`;
  const started: OwnProcess = {
    base,
    url: (path) => `${base}${path}`,
    output: () => lines.join(''),
    stop: () => stop(child),
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline && child.exitCode === null) {
    if (
      await fetch(probe).then(
        (r) => r.ok,
        () => false,
      )
    )
      return started;
    await new Promise((r) => setTimeout(r, 300));
  }
  await stop(child);
  throw new Error(`the ${role} did not start:\n${started.output().slice(-3000)}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  await exited;
  clearTimeout(timer);
}

/** A port nothing listens on now, for a process to be started on. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
