// Part of `npm run bench` (see ./bench.ts).
import type { StateReducer } from '@sweatpants/domain';
import type { AppendDraft } from '../src';

export const OWNER = 'bench-user';
export const AGENT_AUTHOR = 'agent:tidying';

// ---------------------------------------------------------------------------------------------
// Messages: a deterministic mix of user and assistant texts of 50–400 characters.

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORDS = (
  'the a and to of it in that is this for you on with keep donate sell toss box shirt sweater drawer ' +
  'closet kitchen shelf books papers photo memory pile sort decide later maybe yes no thanks sure ' +
  'which one should I would like let us start next room bedroom garage cables chargers mugs plates ' +
  'jacket shoes winter summer gift from my mother grandmother old new broken works fine love hate ' +
  'use every week never since moved here'
).split(' ');

export function text(rand: () => number): string {
  const length = 50 + Math.floor(rand() * 351);
  let out = '';
  while (out.length < length) out += (out ? ' ' : '') + WORDS[Math.floor(rand() * WORDS.length)];
  return out.slice(0, length);
}

/** Message `i` of a conversation: user on odd depths, assistant on even ones, as a chat alternates. */
export function message(rand: () => number, depth: number): AppendDraft {
  return depth % 2 === 1
    ? { kind: 'user', payload: { text: text(rand) }, authorId: OWNER }
    : { kind: 'assistant', payload: { text: text(rand) }, authorId: AGENT_AUTHOR };
}

export type ChatState = { user: number; assistant: number; last: string };

/** A small reducer: counts user and assistant messages and keeps the last text. */
export const chatState: StateReducer<ChatState> = {
  name: 'bench-chat',
  version: 1,
  initial: { user: 0, assistant: 0, last: '' },
  apply(state, node) {
    if (node.kind === 'user') return { ...state, user: state.user + 1, last: node.payload.text as string };
    if (node.kind === 'assistant')
      return { ...state, assistant: state.assistant + 1, last: node.payload.text as string };
    return state;
  },
};
