import { ok, type TreeNode } from '@sweatpants/domain';
import type { ModelReply, ModelRequest } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { ModelSummariser, OfflineSummariser, SUMMARY_TOOL } from './summariser';

const node = (kind: TreeNode['kind'], payload: object, authorId = 'u-1'): TreeNode =>
  ({
    id: `${kind}-${JSON.stringify(payload)}`,
    conversationId: 'c-1',
    parentId: null,
    depth: 0,
    kind,
    payload,
    authorId,
    createdAt: '2026-01-01T12:00:00.000Z',
  }) as TreeNode;

describe('the offline summary', () => {
  it("quotes the person's words, never a mode switch's synthetic message", async () => {
    const text = await new OfflineSummariser().summarise([
      node('user', { text: 'my desk is a mess' }),
      node('assistant', { text: 'What is it for?' }, 'agent:tidying'),
      node(
        'user',
        { text: '[Continue as: Sorting] Give one tiny first action.', synthetic: true },
        'agent:tidying',
      ),
    ]);

    expect(text).toContain('The user wrote 1 message: "my desk is a mess".');
    expect(text).not.toContain('Continue as');
  });
});

describe("the model's summary", () => {
  const nodes = [
    node('user', { text: 'my desk is a mess' }),
    node('assistant', { text: 'What is it for?' }, 'agent:tidying'),
  ];
  const policy = { instructions: 'Summarise briefly.' };
  const summaryFor = { ownerId: 'u1', conversationId: 'c1' };
  /** A model that answers each call with the next of `replies`, recording what it was asked. */
  const scripted = (...replies: ModelReply['content'][]) => {
    const asked: ModelRequest[] = [];
    const model: Model = {
      kind: 'claude',
      name: 'scripted',
      async complete(request) {
        asked.push(request);
        const content = replies.shift() ?? [];
        return ok({
          content,
          stopReason: 'end_turn',
          usage: { inputTokens: 10, outputTokens: 5 },
          model: 'm',
        });
      },
    };
    return { model, asked };
  };
  const recorded = (summary: string): ModelReply['content'] => [
    { type: 'tool_use', id: 'toolu_1', name: SUMMARY_TOOL, input: { summary } },
  ];

  it('is asked for through a forced tool, and is what the tool recorded', async () => {
    const { model, asked } = scripted(recorded('They have a messy desk and want to work at it.'));
    const text = await new ModelSummariser(model).summarise(
      nodes,
      new AbortController().signal,
      policy,
      summaryFor,
    );
    expect(text).toBe('They have a messy desk and want to work at it.');
    expect(asked[0]).toMatchObject({ toolChoice: SUMMARY_TOOL, tools: [{ name: SUMMARY_TOOL }] });
  });

  it('is asked once more when the model answers in words, then the offline summary stands in', async () => {
    const words: ModelReply['content'] = [{ type: 'text', text: 'Here is a summary: a messy desk.' }];
    const once = scripted(words, recorded('A messy desk.'));
    expect(
      await new ModelSummariser(once.model).summarise(
        nodes,
        new AbortController().signal,
        policy,
        summaryFor,
      ),
    ).toBe('A messy desk.');
    const never = scripted(words, words);
    const warned: string[] = [];
    const text = await new ModelSummariser(never.model, (m) => warned.push(m)).summarise(
      nodes,
      new AbortController().signal,
      policy,
      summaryFor,
    );
    expect(never.asked).toHaveLength(2);
    expect(text).toMatch(/^Offline summary of 2 nodes/);
    expect(warned).toHaveLength(2);
  });

  it("is paid by the conversation's owner, and written offline when their budget is spent", async () => {
    const { model, asked } = scripted(recorded('never asked'));
    const paidBy: { ownerId: string; conversationId: string }[] = [];
    const overBudget = (_model: Model, payer: typeof summaryFor): Model => {
      paidBy.push(payer);
      return {
        kind: 'claude',
        name: 'limited',
        complete: async () => ({
          ok: false,
          error: { code: 'over_budget', message: 'your daily budget of $1.00 is used up' },
        }),
      };
    };
    const warned: string[] = [];
    const text = await new ModelSummariser(model, (m) => warned.push(m), overBudget).summarise(
      nodes,
      new AbortController().signal,
      policy,
      summaryFor,
    );
    expect(paidBy).toEqual([summaryFor]);
    expect(asked).toHaveLength(0);
    expect(text).toMatch(/^Offline summary of 2 nodes/);
    expect(warned).toEqual([expect.stringContaining("its owner's budget is spent")]);
  });
});
