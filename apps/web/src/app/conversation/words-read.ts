import { QuestionSettledSchema, type Json, type TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/** The runtime's side call that reads words typed at a question (its `purpose`). */
const READING_PURPOSE = 'interpret-off-script';

/**
 * What the agent took words typed at a question to answer, by the question's elicit id: the
 * content of the runtime's reading (the side call right after the words) when it said they
 * answer it and the question was not asked again (a reading not taken is asked again, naming
 * the question it resumes), or the answer the turn those words ran settled it with (a
 * QUESTION_SETTLED event). A question whose words were a tangent and nothing more has none.
 *
 * @example
 * readFromWords(path).get(formId); // { condition: 'worn', bags: 1, collection: false }
 */
export function readFromWords(path: readonly TreeNode[]): Map<string, Json> {
  const resumed = new Set(
    path.flatMap((node) =>
      node.kind === 'elicit' && isRecord(node.payload) && typeof node.payload['resumes'] === 'string'
        ? [node.payload['resumes']]
        : [],
    ),
  );
  const read = new Map<string, Json>();
  for (const [i, node] of path.entries()) {
    const settled = settledBy(node);
    if (settled) read.set(settled.elicitId, settled.content);
    const said = path[i - 1];
    if (!said || !isTypedAt(said) || !isReading(node)) continue;
    const elicitId = String(said.payload['elicitId']);
    const content = answerIn(node);
    if (content !== null && !resumed.has(elicitId)) read.set(elicitId, content);
  }
  return read;
}

/** The question a settling event settled, and with what, when it was an answer with content. */
function settledBy(node: TreeNode): { elicitId: string; content: Json } | null {
  if (node.kind !== 'event') return null;
  const event = QuestionSettledSchema.safeParse(node.payload);
  if (!event.success || event.data.action !== 'accept' || !isRecord(event.data.content)) return null;
  return { elicitId: event.data.elicitId, content: event.data.content as Json };
}

function isTypedAt(node: TreeNode): node is TreeNode<'response'> {
  return (
    node.kind === 'response' &&
    isRecord(node.payload) &&
    node.payload['action'] === 'other' &&
    typeof node.payload['elicitId'] === 'string'
  );
}

function isReading(node: TreeNode): boolean {
  return node.kind === 'assistant' && isRecord(node.payload) && node.payload['purpose'] === READING_PURPOSE;
}

/** The reading's answer: its tool call's `content` when it says the words answer the question. */
function answerIn(node: TreeNode): Json | null {
  const content = isRecord(node.payload) ? node.payload['content'] : undefined;
  if (!Array.isArray(content)) return null;
  for (const block of content) {
    if (!isRecord(block) || block['type'] !== 'tool_use' || !isRecord(block['input'])) continue;
    const { answers, content: answer } = block['input'];
    return answers === true && isRecord(answer) ? (answer as Json) : null;
  }
  return null;
}
