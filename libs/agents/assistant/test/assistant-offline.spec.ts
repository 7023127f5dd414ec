import type { TreeNode } from '@sweatpants/domain';
import { InMemoryConversationPort, Runner } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { ASSISTANT_OFFLINE_RULES, createAssistant } from '../src';

const EVERYTHING_JS = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const Assistant = createAssistant({
  servers: [{ name: 'everything', command: process.execPath, args: [EVERYTHING_JS, 'stdio'] }],
});

async function session() {
  const port = new InMemoryConversationPort();
  port.create('c1');
  const runner = await Runner.open({
    conversationId: 'c1',
    agent: Assistant.definition,
    port,
    model: new OfflineModel(ASSISTANT_OFFLINE_RULES),
    logs: { write: () => undefined },
  });
  const path = async () => {
    const read = await port.path('c1');
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  const say = async (text: string) => {
    const sent = await runner.send({ text, authorId: 'u1' });
    if (!sent.ok) throw new Error(sent.error.message);
  };
  const lastReply = async () =>
    String((await path()).filter((n) => n.kind === 'assistant').at(-1)?.payload['text']);
  return { runner, path, say, lastReply };
}

// Each test starts server-everything; on a busy machine that alone may take seconds.
jest.setTimeout(30_000);

describe('the assistant on the offline model', () => {
  it('calls the tool the person names with their words, and says what it answered', async () => {
    const s = await session();
    await s.say('use echo with hello');
    await s.runner.whenIdle();
    const call = (await s.path()).find((n): n is TreeNode<'tool_call'> => n.kind === 'tool_call');
    expect(call?.payload).toMatchObject({ name: 'everything_echo', input: { message: 'hello' } });
    expect(await s.lastReply()).toBe('everything_echo: Echo: hello');
    await s.runner.close();
  });

  it('gives the numbers said to a tool that takes numbers, in order', async () => {
    const s = await session();
    await s.say('use get-sum with 2 and 3');
    await s.runner.whenIdle();
    const call = (await s.path()).find((n): n is TreeNode<'tool_call'> => n.kind === 'tool_call');
    expect(call?.payload).toMatchObject({ name: 'everything_get-sum', input: { a: 2, b: 3 } });
    expect(await s.lastReply()).toBe('everything_get-sum: The sum of 2 and 3 is 5.');
    await s.runner.close();
  });

  it('calls the tools in the order named, and a question one of them asks waits for the person', async () => {
    const s = await session();
    await s.say('use echo with first, then use trigger-elicitation-request');
    let [asked] = s.runner.elicits.list();
    for (let i = 0; !asked && i < 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      [asked] = s.runner.elicits.list();
    }
    expect(asked?.type).toBe('form');
    s.runner.answer({ elicitId: asked?.elicitId ?? '', action: 'accept', content: { name: 'Grace' } }, 'u1');
    await s.runner.whenIdle();
    const calls = (await s.path()).filter((n) => n.kind === 'tool_call').map((n) => n.payload['name']);
    expect(calls).toEqual(['everything_echo', 'everything_trigger-elicitation-request']);
    const reply = await s.lastReply();
    expect(reply).toContain('everything_echo: Echo: first');
    expect(reply).toContain('- Name: Grace');
    await s.runner.close();
  });

  it('calls a tool named in words, without its dashes or the start of its name', async () => {
    const s = await session();
    await s.say('please run the tiny image tool');
    await s.runner.whenIdle();
    const calls = (await s.path()).filter((n) => n.kind === 'tool_call').map((n) => n.payload['name']);
    expect(calls).toEqual(['everything_get-tiny-image']);
    await s.runner.close();
  });

  it('calls the tool the words describe, with the numbers they give it', async () => {
    const s = await session();
    await s.say('what is the sum of 3 and 4?');
    await s.runner.whenIdle();
    const call = (await s.path()).find((n): n is TreeNode<'tool_call'> => n.kind === 'tool_call');
    expect(call?.payload).toMatchObject({ name: 'everything_get-sum', input: { a: 3, b: 4 } });
    expect(await s.lastReply()).toBe('everything_get-sum: The sum of 3 and 4 is 7.');
    await s.runner.close();
  });

  it('says how to ask, and its tools by the names a person would say, when the words ask for none', async () => {
    const s = await session();
    await s.say('what can you do?');
    await s.runner.whenIdle();
    expect(await s.lastReply()).toMatch(/^Tell me which tool to use .* The tools I have: echo, .*get-sum/);
    expect((await s.path()).some((n) => n.kind === 'tool_call')).toBe(false);
    await s.runner.close();
  });

  it('calls the tool the words describe when the name said is not quite one ("use the sum of numbers tool with 3 and 4")', async () => {
    const s = await session();
    await s.say('use the sum of numbers tool with 3 and 4');
    await s.runner.whenIdle();
    const call = (await s.path()).find((n): n is TreeNode<'tool_call'> => n.kind === 'tool_call');
    expect(call?.payload).toMatchObject({ name: 'everything_get-sum', input: { a: 3, b: 4 } });
    await s.runner.close();
  });

  it.each([
    [
      'what does get-sum do?',
      'get-sum: Returns the sum of two numbers. It takes a (number): First number; b (number): Second number. To run it, say "use get-sum".',
    ],
    [
      'what is the echo tool for?',
      'echo: Echoes back the input string. It takes message (string): Message to echo. To run it, say "use echo" with what to give it.',
    ],
    [
      'what does get-env do?',
      /^get-env: Returns all environment variables, helpful for debugging MCP server configuration\. It takes nothing\./,
    ],
  ])('answers %j with what the tool does and takes, and does not run it', async (text, reply) => {
    const s = await session();
    await s.say(text);
    await s.runner.whenIdle();
    if (typeof reply === 'string') expect(await s.lastReply()).toBe(reply);
    else expect(await s.lastReply()).toMatch(reply);
    expect((await s.path()).some((n) => n.kind === 'tool_call')).toBe(false);
    await s.runner.close();
  });

  it('says which tools it has when the one named is not among them', async () => {
    const s = await session();
    await s.say('use teleport with Paris');
    await s.runner.whenIdle();
    const reply = await s.lastReply();
    expect(reply).toMatch(/^I have no tool called teleport\. The tools I have: echo, /);
    expect((await s.path()).some((n) => n.kind === 'tool_call')).toBe(false);
    await s.runner.close();
  });
});
