import {
  err,
  ok,
  parseNodeDraft,
  type FieldProblem,
  type Json,
  type NodeDraft,
  type Result,
  type TreeNode,
} from '@sweatpants/domain';
import { nodeId, UnstorableContentError } from './content-address';
import { iso } from './rows';
import { invalid, type StoreError } from './store-error';

/**
 * A node to append. `createdAt` is for copies (fork, rebase) that keep their original time, and
 * for nodes named before they are written (`buildNodes`); new content takes the time of the append.
 */
export type AppendDraft = NodeDraft & { createdAt?: string };

/** A draft content-addressed under its parent: what one row of an append stores. */
export interface ChainedDraft {
  id: string;
  parentId: string;
  draft: AppendDraft;
  createdAt: string;
}

/** The nodes `buildNodes` made: only these may be stored without being checked again. */
const built = new WeakSet<TreeNode>();

/** Whether `node` is one `buildNodes` made (and so was validated and content-addressed there). */
export function wasBuilt(node: TreeNode): boolean {
  return built.has(node);
}

/** Checks each draft against its kind's schema; the root is never appended. */
export function validateDrafts(drafts: readonly AppendDraft[]): Result<AppendDraft[], StoreError> {
  if (drafts.length === 0)
    return err(invalid('nothing to append', [{ field: 'nodes', message: 'is empty' }]));
  const problems: FieldProblem[] = [];
  const valid: AppendDraft[] = [];
  drafts.forEach((draft, i) => {
    const parsed = parseNodeDraft(draft);
    if (draft.kind === 'root') {
      problems.push({ field: `nodes.${i}.kind`, message: 'a conversation has exactly one root' });
    } else if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        problems.push({ field: ['nodes', i, ...issue.path].join('.'), message: issue.message });
      }
    } else if (draft.createdAt !== undefined && Number.isNaN(Date.parse(draft.createdAt))) {
      problems.push({ field: `nodes.${i}.createdAt`, message: 'is not a time' });
    } else {
      valid.push(
        draft.createdAt === undefined ? parsed.data : { ...parsed.data, createdAt: iso(draft.createdAt) },
      );
    }
  });
  return problems.length > 0 ? err(invalid('some nodes are not valid', problems)) : ok(valid);
}

/**
 * Content-addresses a run of valid drafts, each the child of the one before, under `parentId`;
 * a draft without a time takes `now`. Text the database could not store faithfully is refused.
 */
export function chainDrafts(
  parentId: string,
  drafts: readonly AppendDraft[],
  now: string,
): Result<ChainedDraft[], StoreError> {
  let parent = parentId;
  try {
    return ok(
      drafts.map((draft) => {
        const createdAt = draft.createdAt ?? now;
        const id = nodeId({
          parentId: parent,
          kind: draft.kind,
          payload: draft.payload as Json,
          authorId: draft.authorId,
          createdAt,
        });
        const chained = { id, parentId: parent, draft, createdAt };
        parent = id;
        return chained;
      }),
    );
  } catch (error) {
    if (!(error instanceof UnstorableContentError)) throw error;
    const field = error.path.replace(/^\$/, 'payload');
    return err(invalid(error.message, [{ field, message: error.message }]));
  }
}

/**
 * The nodes an append of `drafts` under `parent` stores, named before anything is written: their
 * ids, depths and times. Appending them (as drafts that keep their `createdAt`) under the same
 * parent stores exactly these, so a writer can go on from a node whose write is still to come;
 * `TreeStore.appendBuilt` stores them without checking them again.
 *
 * @example
 * const built = buildNodes(conversationId, head, [{ kind: 'assistant', payload: { text }, authorId }]);
 * if (built.ok) await store.appendBuilt({ conversationId, nodes: built.value, expectedHead: head.id, actorId });
 */
export function buildNodes(
  conversationId: string,
  parent: Pick<TreeNode, 'id' | 'depth'>,
  drafts: readonly AppendDraft[],
  now = new Date().toISOString(),
): Result<TreeNode[], StoreError> {
  const valid = validateDrafts(drafts);
  if (!valid.ok) return valid;
  const chained = chainDrafts(parent.id, valid.value, now);
  if (!chained.ok) return chained;
  const nodes = chainedNodes(conversationId, chained.value, parent.depth + 1);
  for (const node of nodes) built.add(node);
  return ok(nodes);
}

/** The tree nodes a chain of drafts becomes, the first at `firstDepth`. */
export function chainedNodes(
  conversationId: string,
  chained: readonly ChainedDraft[],
  firstDepth: number,
): TreeNode[] {
  return chained.map(
    (c, i) =>
      ({
        id: c.id,
        conversationId,
        parentId: c.parentId,
        depth: firstDepth + i,
        kind: c.draft.kind,
        payload: c.draft.payload,
        authorId: c.draft.authorId,
        createdAt: c.createdAt,
      }) as TreeNode,
  );
}
