// The fake Anthropic API (libs/agents/claude/src/testing) as a process of its own, for a scenario
// whose api runs on Claude: the real SDK and the real usage accounting, with no network.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../..', import.meta.url));

/**
 * Starts the fake; resolves with its base `url` and `stop()`. `timing` ({firstTokenMs,
 * tokensPerSecond}) puts it on a model's clock.
 */
export async function startFakeAnthropicProcess({ timing } = {}) {
  const child = spawn(
    process.execPath,
    ['-r', '@swc-node/register', 'libs/agents/claude/src/testing/fake-anthropic-main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        SWC_NODE_PROJECT: join(root, 'libs/agents/claude/tsconfig.json'),
        ...(timing
          ? {
              FAKE_ANTHROPIC_FIRST_TOKEN_MS: String(timing.firstTokenMs),
              FAKE_ANTHROPIC_TOKENS_PER_SECOND: String(timing.tokensPerSecond),
            }
          : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const output = [];
  child.stderr.on('data', (chunk) => output.push(chunk.toString()));
  const url = await new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk.toString();
      const line = seen.split('\n')[0];
      if (seen.includes('\n')) resolve(line.trim());
    });
    child.on('exit', (code) =>
      reject(new Error(`the fake Anthropic server exited (${code}):\n${output.join('')}`)),
    );
  });
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.on('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { url, stop };
}
