import type { ElicitRequest, Json, TreeNode } from '@sweatpants/domain';
import { INTERPRET_TOOL } from '@sweatpants/agent-runtime';
import { chatElicitId, type Runner, InMemoryConversationPort } from '@sweatpants/agent-runtime/host';

import { type FakeStep, kinds, openRunner, pathOf, until, useFakeAnthropic } from '../src/testing';

const server = useFakeAnthropic();

const say = (text: string): FakeStep => ({ kind: 'reply', content: [{ type: 'text', text }] });
const askDone: FakeStep = {
  kind: 'reply',
  content: [
    { type: 'text', text: 'Let me check.' },
    { type: 'tool_use', id: 'toolu_1', name: 'confirm_done', input: { question: 'Done?' } },
  ],
  stopReason: 'tool_use',
};

function conversation(): { port: InMemoryConversationPort; root: TreeNode } {
  const port = new InMemoryConversationPort();
  return { port, root: port.create('c1') };
}

/** Sends a message and waits until the turn's question is pending; returns that question. */
async function untilAsked(runner: Runner): Promise<ElicitRequest> {
  await until(() => runner.elicits.list().length > 0);
  return runner.elicits.list()[0] as ElicitRequest;
}

describe('the chat prompt', () => {
  it('is pending whenever no turn runs, under an id derived from HEAD, with the agent’s words', async () => {
    const { port, root } = conversation();
    const runner = await openRunner(server.fake, port);

    expect(runner.pending()).toEqual([
      {
        elicitId: `chat-${root.id}`,
        type: 'chat',
        message: 'What shall we talk about?',
        payload: {},
        askedBy: 'test',
      },
    ]);
    expect(chatElicitId(root.id)).toBe(`chat-${root.id}`);
    // waiting on it, as after a turn: the same state reads the same
    expect(runner.status).toBe('waiting');
  });

  it('answered with accept {text}, writes the user’s message and runs a turn on it', async () => {
    const { port, root } = conversation();
    server.fake.script(say('Hello to you.'));
    const runner = await openRunner(server.fake, port);

    const answered = await runner.respond(
      { elicitId: chatElicitId(root.id), action: 'accept', content: { text: 'hello' } },
      'u1',
    );

    expect(answered.ok && answered.value).toMatchObject({
      kind: 'user',
      parentId: root.id,
      payload: { text: 'hello' },
      authorId: 'u1',
    });
    await runner.whenIdle();
    const path = await pathOf(port);
    expect(kinds(path)).toEqual(['root', 'user', 'assistant']);
    expect(path[2]?.payload).toMatchObject({ text: 'Hello to you.' });
    expect(runner.pending()).toEqual([expect.objectContaining({ elicitId: chatElicitId(path[2]!.id) })]);
  });

  it('answered off-script with a photo and no words, keeps the photo in the user’s message', async () => {
    const { port, root } = conversation();
    server.fake.script(say('Nice room.'));
    const runner = await openRunner(server.fake, port);
    const photo = { sha256: 'a'.repeat(64), mediaType: 'image/png' as const, bytes: 68 };

    const answered = await runner.respond(
      { elicitId: chatElicitId(root.id), action: 'other', content: { text: '', photos: [photo] } },
      'u1',
    );

    expect(answered.ok && answered.value).toMatchObject({
      kind: 'user',
      payload: { text: '', photos: [photo] },
    });
    await runner.whenIdle();
  });

  it('answered twice, returns the same node, during the turn and after it; other words after it are refused', async () => {
    const { port, root } = conversation();
    server.fake.script(say('Hi.'));
    const runner = await openRunner(server.fake, port);
    const answer = { elicitId: chatElicitId(root.id), action: 'accept' as const, content: { text: 'hi' } };

    const first = await runner.respond(answer, 'u1');
    const during = await runner.respond(answer, 'u1');
    await runner.whenIdle();
    const after = await runner.respond(answer, 'u1');
    // Other words for the prompt already answered are not that answer: refused, never lost in it.
    const otherWords = await runner.respond({ ...answer, content: { text: 'something else' } }, 'u1');

    const id = first.ok ? first.value.id : 'none';
    expect([during, after].map((r) => r.ok && r.value.id)).toEqual([id, id]);
    expect(!otherWords.ok && otherWords.error.code).toBe('conflict');
    expect(kinds(await pathOf(port))).toEqual(['root', 'user', 'assistant']);
    expect(server.fake.requests).toHaveLength(1);
  });

  it('answers a stale chat id as no longer waiting (conflict), and an unknown one with not_found', async () => {
    const { port, root } = conversation();
    server.fake.script(say('Hi.'));
    const runner = await openRunner(server.fake, port);
    const sent = await runner.respond(
      { elicitId: chatElicitId(root.id), action: 'accept', content: { text: 'hi' } },
      'u1',
    );
    await runner.whenIdle();
    const user = sent.ok ? sent.value : undefined;

    // asked at the user's message? never: the assistant answered there, not the user
    const stale = await runner.respond(
      { elicitId: chatElicitId(user!.id), action: 'accept', content: { text: 'late' } },
      'u1',
    );
    const unknown = await runner.respond(
      { elicitId: 'chat-0000000', action: 'accept', content: { text: 'who?' } },
      'u1',
    );

    expect([stale, unknown].map((r) => !r.ok && r.error.code)).toEqual(['conflict', 'not_found']);
    expect(kinds(await pathOf(port))).toEqual(['root', 'user', 'assistant']);
  });

  it('refuses a content that does not fit with invalid_request naming the field, and changes nothing', async () => {
    const { port, root } = conversation();
    const runner = await openRunner(server.fake, port);
    const elicitId = chatElicitId(root.id);

    const bad = await runner.respond({ elicitId, action: 'accept', content: { text: 42 } }, 'u1');
    const declined = await runner.respond({ elicitId, action: 'decline' }, 'u1');

    expect(!bad.ok && bad.error).toMatchObject({
      code: 'invalid_request',
      problems: [{ field: 'content.text' }],
    });
    expect(!declined.ok && declined.error.code).toBe('invalid_request');
    expect(kinds(await pathOf(port))).toEqual(['root']);
    expect(runner.pending()).toEqual([expect.objectContaining({ elicitId })]);
    expect(runner.status).not.toBe('running');
    expect(server.fake.requests).toHaveLength(0);
  });
});

describe('a tool’s question', () => {
  it('answered twice, returns the first response node; the node is authored by who answered', async () => {
    const { port } = conversation();
    server.fake.script(askDone, say('Great, see you.'));
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'I think that is all', authorId: 'u1' });
    const asked = await untilAsked(runner);

    const first = await runner.respond(
      { elicitId: asked.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );
    const again = await runner.respond(
      { elicitId: asked.elicitId, action: 'accept', content: { value: false } },
      'u2',
    );
    await runner.whenIdle();

    expect(first.ok && first.value).toMatchObject({
      kind: 'response',
      authorId: 'u1',
      payload: { elicitId: asked.elicitId, action: 'accept', content: { value: true } },
    });
    expect(again.ok && again.value.id).toBe(first.ok && first.value.id);
    const path = await pathOf(port);
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
    expect(path.filter((n) => n.authorId === 'u1').map((n) => n.kind)).toEqual(['user', 'response']);
    expect(path[6]?.payload).toMatchObject({ outcome: { value: { done: true, fallback: false } } });
  });

  it('takes an answer sent the moment the question is announced, before its implementation holds it', async () => {
    const { port } = conversation();
    server.fake.script(askDone, say('Great, see you.'));
    const answers: Promise<unknown>[] = [];
    const runner: Runner = await openRunner(server.fake, port, {
      outbox: {
        elicit: (request) => {
          if (request.type === 'confirm')
            answers.push(
              runner!.respond(
                { elicitId: request.elicitId, action: 'accept', content: { value: true } },
                'u1',
              ),
            );
        },
      },
    });
    await runner.send({ text: 'done?', authorId: 'u1' });
    await runner.whenIdle();

    expect(await Promise.all(answers)).toEqual([
      expect.objectContaining({
        ok: true,
        value: expect.objectContaining({ kind: 'response', authorId: 'u1' }),
      }),
    ]);
    expect(kinds(await pathOf(port)).at(-1)).toBe('assistant');
  });

  it('refuses an answer of the wrong shape and stays pending', async () => {
    const { port } = conversation();
    server.fake.script(askDone, say('Fine.'));
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'done?', authorId: 'u1' });
    const asked = await untilAsked(runner);

    const bad = await runner.respond(
      { elicitId: asked.elicitId, action: 'accept', content: { value: 'yes' } },
      'u1',
    );

    expect(!bad.ok && bad.error).toMatchObject({
      code: 'invalid_request',
      problems: [{ field: 'content.value' }],
    });
    expect(runner.pending()).toEqual([asked]);
    await runner.cancel('u1');
  });

  it('is withdrawn when the turn is cancelled, and the chat prompt takes its place', async () => {
    const { port } = conversation();
    server.fake.script(askDone);
    const withdrawn: [string, string][] = [];
    const runner = await openRunner(server.fake, port, {
      outbox: { withdrawn: (elicitId, reason) => withdrawn.push([elicitId, reason]) },
    });
    await runner.send({ text: 'done?', authorId: 'u1' });
    const asked = await untilAsked(runner);

    const cancel = await runner.cancel('u1');

    expect(withdrawn).toEqual([[asked.elicitId, expect.any(String)]]);
    expect(cancel).toMatchObject({ kind: 'cancel', authorId: 'u1' });
    expect(runner.elicits.list()).toEqual([]);
    expect(runner.pending()).toEqual([
      expect.objectContaining({ type: 'chat', elicitId: chatElicitId(cancel!.id) }),
    ]);
    const late = await runner.respond(
      { elicitId: asked.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );
    // asked on this path and withdrawn: it waits no more, and says so
    expect(!late.ok && late.error.code).toBe('conflict');
  });
  it('answered after the conversation moved under the turn, is refused as a conflict and the runner goes stale', async () => {
    const { port, root } = conversation();
    server.fake.script(askDone);
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'done?', authorId: 'u1' });
    const asked = await untilAsked(runner);
    // A compaction or another tab moves HEAD while the question waits.
    port.moveHead('c1', root.id);

    const answered = await runner.respond(
      { elicitId: asked.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );

    expect(!answered.ok && answered.error.code).toBe('conflict');
    expect(runner.stale).toBe(true);
    expect(kinds(await pathOf(port))).toEqual(['root']);
    expect(runner.pending()).toEqual([]);
  });
});

/** The model's reading of off-script words (the runtime's own call, see runtime/off-script.ts). */
const reads = (answers: boolean, content?: { [key: string]: Json }): FakeStep => ({
  kind: 'reply',
  content: [
    {
      type: 'tool_use',
      id: `toolu_read_${answers}`,
      name: INTERPRET_TOOL,
      input: content ? { answers, content } : { answers },
    },
  ],
  stopReason: 'tool_use',
});

describe('words typed while a question waits (seed 004, off-script)', () => {
  it('that answer the question are taken as its answer, and the user’s words stay on the path', async () => {
    const { port } = conversation();
    server.fake.script(askDone, reads(true, { value: true }), say('Great, see you.'));
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'I think that is all', authorId: 'u1' });
    const asked = await untilAsked(runner);

    // Typed into the composer rather than tapped: `send` answers the waiting question off-script.
    const typed = await runner.send({ text: 'yes, all done', authorId: 'u1' });
    await runner.whenIdle();

    expect(typed.ok && typed.value).toMatchObject({
      kind: 'response',
      authorId: 'u1',
      payload: { elicitId: asked.elicitId, action: 'other', content: { text: 'yes, all done' } },
    });
    const path = await pathOf(port);
    const result = path.find((n) => n.kind === 'tool_result');
    expect(result?.payload).toMatchObject({ outcome: { kind: 'success' } });
    expect(JSON.stringify(result?.payload)).toContain('"done":true');
    // The reading is the runtime's own call, which Claude answers through its one tool...
    const reading = server.fake.requests[1]?.body as { tool_choice?: unknown; messages: unknown[] };
    expect(reading.tool_choice).toEqual({ type: 'tool', name: INTERPRET_TOOL });
    expect(JSON.stringify(reading.messages)).toContain('yes, all done');
    // ...and is kept out of what the model sees next.
    const last = server.fake.requests.at(-1)?.body as { messages: unknown[] };
    expect(JSON.stringify(last.messages)).not.toContain(INTERPRET_TOOL);
    expect(JSON.stringify(last.messages)).toContain('yes, all done');
    expect(port.inspect('c1').moves.every((m) => m.action !== 'return')).toBe(true);
  });

  it('that are a tangent run a side quest below them, then the question is asked again after it', async () => {
    const { port } = conversation();
    server.fake.script(askDone, reads(false), say('Sunny in Tokyo.'), say('Great, see you.'));
    const shown: { elicitId: string; nodeId: string }[] = [];
    const runner = await openRunner(server.fake, port, {
      outbox: { elicit: (request, nodeId) => shown.push({ elicitId: request.elicitId, nodeId }) },
    });
    await runner.send({ text: 'I think that is all', authorId: 'u1' });
    const asked = await untilAsked(runner);

    const tangent = await runner.respond(
      { elicitId: asked.elicitId, action: 'other', content: { text: "what's the weather in Tokyo?" } },
      'u1',
    );
    await until(() => runner.elicits.list().some((q) => q.resumes === asked.elicitId));
    const again = runner.elicits.list()[0] as ElicitRequest;

    // The question comes back as a new elicit after the tangent, naming the one it resumes.
    expect(again).toMatchObject({ type: asked.type, message: asked.message, resumes: asked.elicitId });
    expect(again.elicitId).not.toBe(asked.elicitId);
    expect(runner.pending()).toEqual([again]);
    const sideRequest = server.fake.requests[2]?.body as { messages: { role: string; content: unknown }[] };
    expect(JSON.stringify(sideRequest.messages.at(-1))).toContain("what's the weather in Tokyo?");

    const answered = await runner.respond(
      { elicitId: again.elicitId, action: 'accept', content: { value: true } },
      'u1',
    );
    await runner.whenIdle();

    // Everything said stays on HEAD's path, in order, and HEAD never moved back.
    const path = await pathOf(port);
    expect(
      path.map((n) => (n.kind === 'assistant' ? `assistant:${String(n.payload['text'])}` : n.kind)),
    ).toEqual([
      'root',
      'user',
      'assistant:Let me check.',
      'tool_call',
      'elicit',
      'response',
      'assistant:',
      'assistant:Sunny in Tokyo.',
      'elicit',
      'response',
      'tool_result',
      'assistant:Great, see you.',
    ]);
    expect(tangent.ok && path.some((n) => n.id === tangent.value.id)).toBe(true);
    // What Claude is sent after it is a valid history: each tool call right before its result,
    // although the user's words and the side quest's reply came between them on the path.
    const last = server.fake.requests.at(-1)?.body as {
      messages: { role: string; content: { type: string; id?: string; tool_use_id?: string }[] }[];
    };
    last.messages.forEach((message, i) => {
      for (const block of message.content.filter((b) => b.type === 'tool_use'))
        expect(last.messages[i + 1]?.content.some((b) => b.tool_use_id === block.id)).toBe(true);
    });
    expect(JSON.stringify(last.messages)).toContain("what's the weather in Tokyo?");
    expect(answered.ok && answered.value.parentId).toBe(path[8]?.id);
    expect(port.inspect('c1').moves.every((m) => m.action !== 'return')).toBe(true);
    expect(shown.map((s) => s.elicitId)).toEqual([
      asked.elicitId,
      again.elicitId,
      expect.stringMatching(/^chat-/),
    ]);
  });

  it('that stop ("I\'m done") may have the side quest set the question aside: it is declined, not asked again', async () => {
    const { port } = conversation();
    server.fake.script(
      askDone,
      reads(false),
      {
        kind: 'reply',
        content: [{ type: 'tool_use', id: 'toolu_aside', name: 'set_question_aside', input: {} }],
        stopReason: 'tool_use',
      },
      say('All right, we leave it.'),
      say('Talk soon.'),
    );
    const runner = await openRunner(server.fake, port);
    await runner.send({ text: 'I think that is all', authorId: 'u1' });
    const asked = await untilAsked(runner);
    await runner.respond({ elicitId: asked.elicitId, action: 'other', content: { text: "I'm done" } }, 'u1');
    await runner.whenIdle();

    // Offered in the side quest only, beside the agent's own tools.
    const tools = (i: number) =>
      ((server.fake.requests[i]?.body as { tools?: { name: string }[] }).tools ?? []).map((t) => t.name);
    expect(tools(0)).not.toContain('set_question_aside');
    expect(tools(2)).toContain('set_question_aside');
    // Told which question waits, which its history does not show (the call that asked it has no
    // result yet); in the notes, after the cached prefix.
    const sent = (i: number) => JSON.stringify(server.fake.requests[i]?.body);
    expect(sent(0)).not.toContain('Waiting question: ');
    expect(sent(2)).toContain('Waiting question: {\\"type\\":\\"confirm\\"');
    const path = await pathOf(port);
    expect(path.filter((n) => n.kind === 'elicit')).toHaveLength(1);
    const result = path.find((n) => n.kind === 'tool_result' && n.payload['name'] === 'confirm_done');
    expect(JSON.stringify(result?.payload)).not.toContain('"done":true');
    expect(path.filter((n) => n.kind === 'assistant').map((n) => n.payload['text'])).toEqual([
      'Let me check.',
      '',
      '',
      'All right, we leave it.',
      'Talk soon.',
    ]);
    expect(runner.pending()[0]?.type).toBe('chat');
  });
});
