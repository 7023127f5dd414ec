import type { ElicitAnswer, ElicitRequest, TreeNode } from '@sweatpants/domain';
import { type Model, Runner, silentOutbox, InMemoryConversationPort } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { ClaudeModel, claudeConfig } from '@sweatpants/agent-claude';
import type { FakeAnthropic } from '@sweatpants/agent-claude/testing';

import {
  CONCIERGE_OFFLINE_RULES,
  conciergeAgent,
  demoActivities,
  demoPeople,
  InMemoryActivityStore,
  provideActivityStore,
} from '../src';

/** The demo data as of a fixed moment, so every run reads the same activities. */
export const NOW = new Date('2026-11-20T12:00:00.000Z');

export const demoStore = (): InMemoryActivityStore =>
  new InMemoryActivityStore(demoActivities(NOW), demoPeople());

export const offlineModel = (): OfflineModel => new OfflineModel(CONCIERGE_OFFLINE_RULES);

/** Claude through the real SDK, pointed at the fake server. */
export const claudeAt = (fake: FakeAnthropic): ClaudeModel =>
  new ClaudeModel(
    claudeConfig({
      apiKey: 'test-key',
      baseURL: fake.url,
      model: 'claude-sonnet-4-6',
      retry: { baseDelayMs: 1, maxDelayMs: 5 },
    }),
  );

const opened: Runner[] = [];

/** Stops every runner a test opened (call in afterEach). */
export async function closeConcierges(): Promise<void> {
  await Promise.all(opened.splice(0).map((r) => r.close()));
}

export interface Concierge {
  runner: Runner;
  port: InMemoryConversationPort;
  store: InMemoryActivityStore;
  /** the conversation root → HEAD */
  path(): Promise<TreeNode[]>;
}

/** A concierge conversation whose tools use `store`. */
export async function openConcierge(
  model: Model,
  options: { store?: InMemoryActivityStore; questionTimeoutMs?: number } = {},
): Promise<Concierge> {
  const port = new InMemoryConversationPort();
  port.create('c1');
  const store = options.store ?? demoStore();
  const runner = await Runner.open({
    conversationId: 'c1',
    agent: conciergeAgent,
    port,
    model,
    outbox: silentOutbox,
    logs: { write: () => undefined },
    provide: provideActivityStore(store),
    ...(options.questionTimeoutMs ? { questionTimeoutMs: options.questionTimeoutMs } : {}),
  });
  opened.push(runner);
  return {
    runner,
    port,
    store,
    path: async () => {
      const path = await port.path('c1');
      if (!path.ok) throw new Error(path.error.message);
      return path.value;
    },
  };
}

/**
 * Waits for the turn to ask something other than the chat prompt (and other than `except`), or to
 * end; returns what it asks.
 */
export async function nextQuestion(
  runner: Runner,
  except?: ElicitRequest,
): Promise<ElicitRequest | undefined> {
  for (;;) {
    const [pending] = runner.elicits.list();
    if (pending && pending.elicitId !== except?.elicitId) return pending;
    if (runner.status !== 'running' && runner.pending()[0]?.type === 'chat') return undefined;
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Answers the question and waits until its answer is recorded. */
export async function answer(runner: Runner, reply: Omit<ElicitAnswer, 'elicitId'>, asked: ElicitRequest) {
  const recorded = await runner.respond({ elicitId: asked.elicitId, ...reply }, 'u1');
  if (!recorded.ok) throw new Error(recorded.error.message);
  return recorded.value;
}

/** The texts of the assistant's replies on a path (not the runtime's side calls, which the chat hides). */
export const replies = (path: readonly TreeNode[]): string[] =>
  path
    .filter((n) => n.kind === 'assistant' && n.payload['purpose'] === undefined)
    .map((n) => String(n.payload['text']));

/** The tool calls on a path, by name. */
export const callsOf = (path: readonly TreeNode[], name: string): TreeNode[] =>
  path.filter((n) => n.kind === 'tool_call' && n.payload['name'] === name);
