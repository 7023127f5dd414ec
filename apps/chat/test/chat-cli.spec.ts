import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { useFakeAnthropic } from '@sweatpants/agent-claude/testing';

const ROOT = resolve(__dirname, '../../..');
const server = useFakeAnthropic();

/** A developer's agent in a folder of its own, with the workspace's packages installed there. */
const SCALES = `
import { createAgent, createTool, Ok } from '@sweatpants/agent-runtime';
import type { OfflineRule } from '@sweatpants/agent-runtime/offline';
import * as z from 'zod';

const weigh = createTool('weigh')
  .description('Weighs a thing')
  .parameter(z.object({ item: z.string() }))
  .execute(function* ({ item }) {
    return Ok({ item, grams: item.length });
  });

export default createAgent({ weigh }, { name: 'scales' });

export const offlineRules: readonly OfflineRule[] = [
  {
    name: 'scales: weigh what was named',
    when: (ctx) => ctx.offers('weigh') && !ctx.hasToolResults,
    reply: (ctx) => ({ text: 'Onto the scales.', calls: [{ name: 'weigh', input: { item: ctx.userText } }] }),
  },
];
`;

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'chat-agent-'));
  symlinkSync(join(ROOT, 'node_modules'), join(folder, 'node_modules'), 'dir');
  writeFileSync(join(folder, 'scales.ts'), SCALES);
  writeFileSync(join(folder, 'empty.ts'), 'export const scales = 1;\n');
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The chat as a developer starts it, with `lines` typed and the terminal then closed. */
function chat(
  args: readonly string[],
  lines: readonly string[],
  env: NodeJS.ProcessEnv = {},
): Promise<Finished> {
  const base = { ...process.env };
  delete base['ANTHROPIC_API_KEY'];
  delete base['ANTHROPIC_BASE_URL'];
  const child = spawn(
    process.execPath,
    ['-r', './libs/tree-store/bench/register.js', 'apps/chat/src/chat-cli.ts', ...args],
    { cwd: ROOT, env: { ...base, ...env }, stdio: 'pipe' },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end(lines.map((line) => `${line}\n`).join(''));
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

const onClaude = (): NodeJS.ProcessEnv => ({
  ANTHROPIC_API_KEY: 'test-key',
  ANTHROPIC_BASE_URL: server.fake.url,
});

/** How many times `text` was printed. */
const times = (shown: string, text: string): number => shown.split(text).length - 1;

describe('the terminal chat, as a process', () => {
  it('runs an agent file on the offline model, by its own offline rules', async () => {
    const run = await chat([join(folder, 'scales.ts')], ['a feather', '/cancel']);

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('scales, on the offline model');
    expect(times(run.stdout, 'agent> Onto the scales.')).toBe(1);
    expect(run.stdout).toContain('(tool: weigh)');
    expect(run.stdout).toContain('"grams":9');
  });

  it('runs an agent file on Claude when asked, each reply printed once', async () => {
    server.fake.script(
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'Weighing it now.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weigh', input: { item: 'a brick' } },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'A brick weighs 7 grams here.' }] },
    );

    const run = await chat(
      ['--file', join(folder, 'scales.ts'), '--model=claude'],
      ['a brick', '/cancel'],
      onClaude(),
    );

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('scales, on the claude model');
    expect(times(run.stdout, 'Weighing it now.')).toBe(1);
    expect(times(run.stdout, 'A brick weighs 7 grams here.')).toBe(1);
    expect(server.fake.requests.map((r) => r.apiKey)).toEqual(['test-key', 'test-key']);
    expect(server.fake.requests[0]?.body?.tools?.map((t) => ('name' in t ? t.name : undefined))).toContain(
      'weigh',
    );
  });

  it('runs a registered agent on the offline model even when a key is set', async () => {
    const run = await chat(
      ['--agent=tidying', '--model=offline'],
      ['I have an old winter coat', '/cancel'],
      onClaude(),
    );

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('tidying, on the offline model');
    expect(run.stdout).toMatch(/agent> \S/);
    expect(server.fake.requests).toEqual([]);
  });

  it('runs a registered agent on Claude when the key is set', async () => {
    server.fake.script({
      kind: 'reply',
      content: [{ type: 'text', text: 'Hello from the donations desk.' }],
    });

    const run = await chat(['donations'], ['hello', '/cancel'], onClaude());

    expect(run.code).toBe(0);
    expect(run.stdout).toContain('donations, on the claude model');
    expect(times(run.stdout, 'Hello from the donations desk.')).toBe(1);
    expect(server.fake.requests).toHaveLength(1);
  });

  it('says so, and stops, for a file that does not exist or exports no agent', async () => {
    const missing = await chat([join(folder, 'nowhere.ts')], []);
    const empty = await chat([join(folder, 'empty.ts')], []);

    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`No agent file at ${join(folder, 'nowhere.ts')}`);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('exports no agent');
    expect(empty.stdout).toBe('');
  });

  it('refuses Claude without a key, and a model it does not know', async () => {
    const keyless = await chat(['tidying', '--model=claude'], []);
    const unknown = await chat(['tidying', '--model=gpt'], []);

    expect(keyless.code).toBe(2);
    expect(keyless.stderr).toContain('--model=claude needs ANTHROPIC_API_KEY');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('--model is offline or claude');
  });
});
