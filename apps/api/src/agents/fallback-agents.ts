import {
  ask,
  createTool,
  defineMode,
  modeReducer,
  prompt,
  ToolSuccess,
  type AgentDefinition,
  type OfflineRule,
} from '@sweatpants/agents';
import type { AgentName, Json, StateReducer } from '@sweatpants/domain';
import * as z from 'zod';
import type { AgentEntry } from './agent-entry';

/**
 * Stand-ins for the tidying agent and the concierge while they are being written (they land in
 * libs/agents as AGENTS and OFFLINE_RULES, which the registry prefers). Each chats, and asks the
 * user to confirm when they say they are done, so every runtime path the api carries (a turn, a
 * tool's elicit, its answer, a cancel) is exercised with the offline model.
 */
const confirmDone = createTool('confirm_done')
  .description('Ask the user whether they are done for today.')
  .input(z.object({ question: z.string() }))
  .execute(function* ({ question }) {
    const asked = yield* ask(
      { type: 'confirm', message: question, payload: { default: false } },
      { value: false },
    );
    return ToolSuccess({ done: asked.content.value, fallback: asked.fallback });
  });

/** Offline: "done" (or "finished") asks confirm_done once; its result is then acknowledged. */
const askWhenDone: OfflineRule = {
  name: 'fallback: confirm when the user says they are done',
  when: (ctx) => ctx.offers('confirm_done') && !ctx.hasToolResults && ctx.userMentions(['done', 'finished']),
  reply: () => ({
    text: 'Before we stop:',
    calls: [{ name: 'confirm_done', input: { question: 'Are you done for today?' } }],
  }),
};

interface TidyingState {
  [key: string]: Json;
  phase: string;
  piles: { belongs: string[]; out: string[]; unsure: string[] };
  itemsProcessed: number;
  anchors: string[];
}

/** PROTOCOL.md's minimum tidying state; the stand-in only moves the phase with its mode. */
const tidyingState: StateReducer<TidyingState> = {
  name: 'fallback-tidying',
  version: 1,
  initial: {
    phase: 'surveying',
    piles: { belongs: [], out: [], unsure: [] },
    itemsProcessed: 0,
    anchors: [],
  },
  apply: (state, node) => (node.kind === 'mode' ? { ...state, phase: String(node.payload['to']) } : state),
};

function standIn(name: AgentName, state: StateReducer, chat: string): AgentDefinition {
  return {
    name,
    modes: [
      defineMode({
        name: 'chatting',
        data: z.null(),
        template: () => prompt`You are the ${name} agent. Ask before the user stops.`,
        tools: () => [confirmDone],
      }),
    ],
    initial: { mode: 'chatting', data: null },
    state,
    chatPrompt: () => ({ message: chat }),
    fallbackReply: (error) => `Sorry, I could not think just now (${error.code}). Try again in a moment.`,
  };
}

export const FALLBACK_AGENTS: Record<AgentName, AgentEntry> = {
  tidying: {
    definition: standIn('tidying', tidyingState as StateReducer, 'What space shall we tidy?'),
    offlineRules: [askWhenDone],
  },
  concierge: {
    definition: standIn(
      'concierge',
      modeReducer('fallback-concierge', { mode: 'chatting', data: null }) as StateReducer,
      'What can I line up for you?',
    ),
    offlineRules: [askWhenDone],
  },
};
