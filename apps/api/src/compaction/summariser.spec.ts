import type { TreeNode } from '@sweatpants/domain';
import { OfflineSummariser } from './summariser';

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
