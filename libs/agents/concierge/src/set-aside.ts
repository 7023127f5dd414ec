import type { Json, TreeNode } from '@sweatpants/domain';
import type { ToolResultPayload } from '@sweatpants/agent-runtime';
import * as z from 'zod';

/**
 * "I'm done" typed while a card waits: the side quest it starts calls finish_review, which cannot
 * leave the interview from there (a side quest runs inside the card's question). It sets the card
 * aside instead, and says so in its result. The side quest's turn reads that result to settle the
 * card (not asked again), and the card's own tool to end the review once its question returns.
 * Both read what was recorded, so a replay reads the same.
 */

/** The tool whose result in a side quest sets the card aside. */
export const FINISH_REVIEW = 'finish_review';

const SetAsideSchema = z.object({ setAside: z.string(), summary: z.string() });

/** finish_review's result in a side quest beside the card `elicitId`. */
export function setAsideResult(elicitId: string, summary: string): { [key: string]: Json } {
  return {
    setAside: elicitId,
    summary,
    note: 'The open card is set aside (what it asks about stays quarantined) and the review ends right after your reply: say so in a sentence.',
  };
}

/** The card a finish_review among `nodes` set aside (the card `elicitId`, when given), and its summary. */
export function stopSaidAside(
  nodes: readonly TreeNode[],
  elicitId?: string,
): { elicitId: string; summary: string } | undefined {
  for (const node of nodes) {
    if (node.kind !== 'tool_result' || node.payload['name'] !== FINISH_REVIEW) continue;
    const outcome = (node.payload as unknown as ToolResultPayload).outcome;
    if (outcome.kind !== 'success') continue;
    const read = SetAsideSchema.safeParse(outcome.value);
    if (read.success && (elicitId === undefined || read.data.setAside === elicitId))
      return { elicitId: read.data.setAside, summary: read.data.summary };
  }
  return undefined;
}
