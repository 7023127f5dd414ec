import type { ConversationRecord } from '@sweatpants/domain';
import type { TreeStore } from '@sweatpants/tree-store';

const PAGE = 200;

/** Every conversation a person owns, archived ones included, oldest page last. */
export async function ownedConversations(store: TreeStore, ownerId: string): Promise<ConversationRecord[]> {
  const all: ConversationRecord[] = [];
  let before: string | undefined;
  for (;;) {
    const page = await store.listConversations({
      ownerId,
      includeArchived: true,
      limit: PAGE,
      ...(before ? { before } : {}),
    });
    all.push(...page.items);
    if (!page.next) return all;
    before = page.next;
  }
}
