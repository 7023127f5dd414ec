import type { Json } from '@sweatpants/domain';
import type { ModelMessage } from '../model';
import { canonicalMessages, createOfflineContext } from './offline-context';
import { canonicalJson } from './text';

/** Each message as plain JSON, every field of its blocks: what the seed has always hashed. */
function asJson(messages: readonly ModelMessage[]): Json {
  return messages.map((message) => ({
    role: message.role,
    content: message.content.map((block): Json => {
      switch (block.type) {
        case 'text':
          return { type: block.type, text: block.text };
        case 'image':
          return { type: block.type, mediaType: block.mediaType, sha256: block.sha256 };
        case 'tool_use':
          return { type: block.type, id: block.id, name: block.name, input: block.input };
        case 'tool_result':
          return {
            type: block.type,
            toolUseId: block.toolUseId,
            content: block.content,
            isError: block.isError ?? false,
          };
      }
    }),
  }));
}

describe('the offline seed', () => {
  it('writes the conversation as canonical JSON writes it, for every kind of block', () => {
    const messages: ModelMessage[] = [
      {
        role: 'user',
        content: [
          { type: 'image', mediaType: 'image/png', sha256: 'ab12' },
          { type: 'text', text: 'my "desk"\n' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Let me look — ünïcode' },
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'place',
            input: { where: 'shelf', items: ['a', 2, null, { z: true, a: false }] },
          },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_1', content: '{"ok":true}', isError: true },
          { type: 'tool_result', toolUseId: 'toolu_2', content: 'done' },
          { type: 'text', text: '' },
        ],
      },
    ];
    expect(canonicalMessages(messages)).toBe(canonicalJson(asJson(messages)));
    expect(canonicalMessages([])).toBe(canonicalJson([]));
  });
});

describe('the words the rules read', () => {
  it('reads a phone’s curly apostrophes as straight ones', () => {
    const ctx = createOfflineContext({
      system: '',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'I’m done, that‘s all' }] }],
      tools: [],
    });
    expect(ctx.userText).toBe("I'm done, that's all");
  });
});
