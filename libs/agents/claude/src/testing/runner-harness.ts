// This file's helpers register jest hooks; saying so here lets a consumer that is not a jest suite
// (the reliability suite, say) import the rest of the testing entry point and still typecheck.
/// <reference types="jest" />
import type { AgentDefinition, LogSink } from '@sweatpants/agent-runtime';
import { Runner, silentOutbox, type ConversationPort, type Outbox } from '@sweatpants/agent-runtime/host';
import { testAgent } from '@sweatpants/agent-runtime/testing';
import type { TreeNode } from '@sweatpants/domain';
import { ClaudeModel, claudeConfig } from '..';
import { startFakeAnthropic, type FakeAnthropic } from './fake-anthropic-server';

/** A fresh fake Anthropic server per test; read `.fake` inside the test. */
export function useFakeAnthropic(): { readonly fake: FakeAnthropic; restart(): Promise<void> } {
  let current: FakeAnthropic | undefined;
  beforeEach(async () => {
    current = await startFakeAnthropic();
  });
  afterEach(() => current?.close());
  return {
    get fake(): FakeAnthropic {
      if (!current) throw new Error('the fake server runs only inside a test');
      return current;
    },
    async restart() {
      await current?.close();
      current = await startFakeAnthropic();
    },
  };
}

/** Claude through the real SDK against the fake, with tiny backoffs (tests count, never time). */
export const claudeAt = (fake: FakeAnthropic, stream = true): ClaudeModel =>
  new ClaudeModel(
    claudeConfig({
      apiKey: 'test-key',
      baseURL: fake.url,
      model: 'claude-sonnet-4-6',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
      stream,
    }),
  );

/** Opens conversation `c1` on `port` with the test agent (or `agent`) and a quiet log. */
export function openRunner(
  fake: FakeAnthropic,
  port: ConversationPort,
  options: { outbox?: Partial<Outbox>; logs?: LogSink; agent?: AgentDefinition; stream?: boolean } = {},
): Promise<Runner> {
  return Runner.open({
    conversationId: 'c1',
    agent: options.agent ?? testAgent,
    port,
    model: claudeAt(fake, options.stream),
    logs: options.logs ?? { write: () => undefined },
    outbox: { ...silentOutbox, ...options.outbox },
  });
}

/** Waits for something another task does; each check is a turn of the event loop apart. */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setTimeout(r, 5));
}

/** The conversation's path root → HEAD. */
export async function pathOf(port: ConversationPort, conversationId = 'c1'): Promise<TreeNode[]> {
  const path = await port.path(conversationId);
  if (!path.ok) throw new Error(path.error.message);
  return path.value;
}

export const kinds = (path: readonly TreeNode[]): string[] => path.map((n) => n.kind);
