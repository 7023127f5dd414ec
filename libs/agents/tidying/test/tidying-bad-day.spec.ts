import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import type { TreeNode } from '@sweatpants/domain';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import {
  offlineResponder,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeStep,
} from '@sweatpants/agent-claude/testing';

import { TIDYING_OFFLINE_RULES } from '../src';
import { openSession, PHOTO, claudeAt, tapFirst } from './tidying-session-harness';

/**
 * A model's bad day (issue: "Claude for real"): each failure a real Messages API has, met in the
 * middle of a tidying session on the real SDK. The fake answers as the offline coach would, except
 * that the first act call after the photo (the one that proposes a card) fails as the spec says.
 * Each failure is retried or handled: the turn ends, the person's words stay on the path, and the
 * session goes on.
 */
let fake: FakeAnthropic;
beforeEach(async () => {
  fake = await startFakeAnthropic();
});
afterEach(() => fake.close());

const claude = () => claudeAt(fake.url);

/** Whether a request is an act call of the coach's (it offers the mode's tools, not a forced one). */
const isAct = (body: MessageCreateParams) =>
  body.tool_choice === undefined &&
  (body.tools ?? []).some((t) => 'name' in t && t.name === 'propose_disposition');

/**
 * The offline coach, with `failure` answering the first act call about `words` instead. Its
 * reading of `words` comes without a proposal (as a model may read them), so the card is
 * proposed by an act call: the call that fails.
 */
function failingOnce(failure: FakeStep, words: string) {
  const offline = offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES));
  let failed = false;
  fake.respond((body) => {
    const about = JSON.stringify(body.messages).includes(words);
    if (!failed && isAct(body) && about) {
      failed = true;
      return failure;
    }
    return about ? withoutProposal(offline(body)) : offline(body);
  });
}

/** A reading's reply with its proposal left out. */
function withoutProposal(step: FakeStep): FakeStep {
  if (step.kind !== 'reply') return step;
  return {
    ...step,
    content: step.content.map((b) =>
      b.type === 'tool_use' && b.name === 'record_extraction'
        ? { ...b, input: { ...b.input, proposal: null } }
        : b,
    ),
  };
}

const replies = (path: readonly TreeNode[]) =>
  path.filter((n) => n.kind === 'assistant').map((n) => String(n.payload['text'] ?? ''));

async function sessionMeeting(failure: FakeStep) {
  failingOnce(failure, 'a broken charger');
  const s = await openSession(claude());
  await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
  await s.say('a broken charger', tapFirst);
  const path = await s.path();
  // The person's words are on the path, the turn ended at the chat prompt, something was said.
  expect(path.some((n) => n.kind === 'user' && n.payload['text'] === 'a broken charger')).toBe(true);
  expect(s.runner.pending()[0]?.type).toBe('chat');
  expect(replies(path).at(-1)?.trim()).not.toBe('');
  // And the session goes on.
  await s.say('the lamp', tapFirst);
  expect(s.runner.pending()[0]?.type).toBe('chat');
  return { s, path: await s.path() };
}

describe("a model's bad day never derails a tidying session", () => {
  it('an empty reply is asked again', async () => {
    const { s } = await sessionMeeting({ kind: 'reply', content: [] });
    expect(s.state().piles.out).toContain('broken charger');
  });

  it('a call of a tool that does not exist goes back to the model as an error it reads', async () => {
    const { path, s } = await sessionMeeting({
      kind: 'reply',
      content: [{ type: 'tool_use', name: 'make_coffee', input: { strength: 'strong' } }],
    });
    const result = path.find((n) => n.kind === 'tool_result' && n.payload['name'] === 'make_coffee');
    expect(JSON.stringify(result?.payload)).toMatch(/error/i);
    expect(s.state().piles.out).toContain('broken charger');
  });

  it('tool input that fails its schema goes back to the model as an error naming the field', async () => {
    const { path } = await sessionMeeting({
      kind: 'reply',
      content: [
        { type: 'tool_use', name: 'propose_disposition', input: { item: 'broken charger', choices: [] } },
      ],
    });
    const refused = path.find(
      (n) =>
        n.kind === 'tool_result' &&
        n.payload['name'] === 'propose_disposition' &&
        JSON.stringify(n.payload['outcome']).includes('"kind":"error"'),
    );
    expect(JSON.stringify(refused?.payload)).toContain('choices');
  });

  it('a reply cut off by max_tokens in the middle of its tool call is handled', async () => {
    await sessionMeeting({
      kind: 'malformed_tool_input',
      name: 'propose_disposition',
      raw: '{"item": "broken charger", "choices": [{"label": "Tra',
      stopReason: 'max_tokens',
    });
  });

  it('a stream that drops before any words is asked again', async () => {
    const { s } = await sessionMeeting({ kind: 'dropped_stream' });
    expect(s.state().piles.out).toContain('broken charger');
  });

  it('a stream that drops after its first words ends in a plain fallback, and the next message runs', async () => {
    const { path } = await sessionMeeting({ kind: 'dropped_stream', textBefore: 'The charger' });
    expect(path.some((n) => n.kind === 'assistant' && n.payload['fallback'] !== undefined)).toBe(true);
  });

  it('an overloaded model gives a plain word that it is busy, and the next message runs', async () => {
    const overloaded: FakeStep = { kind: 'error', status: 529 };
    const offline = offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES));
    let busy = false;
    fake.respond((body) => (busy ? overloaded : offline(body)));
    const s = await openSession(claude());
    await s.say('My desk is covered in mugs and papers', tapFirst, [PHOTO]);
    busy = true;
    await s.say('a broken charger', tapFirst);
    expect(replies(await s.path()).at(-1)).toMatch(/^The model is busy right now/);
    busy = false;
    await s.say('a broken charger', tapFirst);
    expect(s.state().piles.out).toContain('broken charger');
  });
});
