import { PassThrough } from 'node:stream';
import { run } from 'effection';

import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { claudeAt, kinds, useFakeAnthropic } from '@sweatpants/agent-claude/testing';
import { testAgent } from '@sweatpants/agent-runtime/testing';
import { Tidying, TIDYING_OFFLINE_RULES } from '@sweatpants/agent-tidying';

import { runChatSession } from '../src/chat-session';

const server = useFakeAnthropic();

/** A terminal with everything the user will type already written, then closed. */
function typed(...lines: string[]) {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = '';
  output.on('data', (chunk: Buffer) => (shown += chunk.toString()));
  input.end(lines.map((l) => `${l}\n`).join(''));
  return { input, output, shown: () => shown };
}

describe('the chat session in a terminal', () => {
  it('walks a turn with a tool’s question: the message, the question, the answer, the reply', async () => {
    server.fake.script(
      {
        kind: 'reply',
        content: [
          { type: 'text', text: 'Let me check.' },
          { type: 'tool_use', id: 'toolu_1', name: 'confirm_done', input: { question: 'Done for today?' } },
        ],
      },
      { kind: 'reply', content: [{ type: 'text', text: 'Great, see you.' }] },
    );
    const terminal = typed('I think that is all', 'y');

    const path = await run(() =>
      runChatSession({ agent: testAgent, model: claudeAt(server.fake), ...terminal, userId: 'user:me' }),
    );

    expect(kinds(path)).toEqual([
      'root',
      'user',
      'assistant',
      'tool_call',
      'elicit',
      'response',
      'tool_result',
      'assistant',
    ]);
    expect(path.filter((n) => n.authorId === 'user:me').map((n) => n.kind)).toEqual(['user', 'response']);
    expect(path[5]?.payload).toMatchObject({ action: 'accept', content: { value: true } });
    const shown = terminal.shown();
    const order = [
      '? What shall we talk about?',
      'agent> Let me check.',
      '? Done for today?',
      'agent> Great, see you.',
    ];
    expect(order.map((text) => shown.indexOf(text))).toEqual(
      [...order.map((text) => shown.indexOf(text))].sort((a, b) => a - b),
    );
    expect(order.every((text) => shown.includes(text))).toBe(true);
    expect(shown).toContain('(tool: confirm_done)');
  });

  it('runs on the offline model and ends when the chat prompt is left', async () => {
    const terminal = typed('hello desk', '/cancel', 'never read');

    const path = await run(() =>
      runChatSession({ agent: testAgent, model: new OfflineModel(), ...terminal }),
    );

    expect(kinds(path)).toEqual(['root', 'user', 'assistant']);
    expect(path[1]?.authorId).toBe('user:cli');
    expect(terminal.shown()).toContain('test, on the offline model');
    expect(terminal.shown()).toContain('offline model');
    expect(terminal.shown()).not.toContain('never read');
  });

  it('prints each reply once, when one turn streams several before they are stored', async () => {
    // The tidying coach's offline turn says a first word, then asks about the space: two replies
    // streamed before the offline model's nodes are stored together.
    const terminal = typed('I have an old winter coat', '/cancel');

    const path = await run(() =>
      runChatSession({
        agent: Tidying.definition,
        model: new OfflineModel(TIDYING_OFFLINE_RULES),
        ...terminal,
      }),
    );

    const replies = path
      .filter((n) => n.kind === 'assistant')
      .map((n) => String((n.payload as { text?: unknown }).text ?? ''))
      .filter((text) => text !== '');
    expect(replies.length).toBeGreaterThan(1);
    const shown = terminal.shown();
    for (const reply of replies) expect(shown.split(reply).length - 1).toBe(1);
    // each reply on a line of its own
    for (const reply of replies) expect(shown).toMatch(new RegExp(`agent> ${escaped(reply)}\n`));
  });
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
