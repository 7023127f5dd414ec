import type { ElicitRequest } from '@sweatpants/domain';

/**
 * Who asks each pending question, in words ("The donation helper asks…"), where the chat should
 * say: when an agent other than the conversation's own asks (the donation helper inside the
 * coach's turn), and on every card when more than one agent has a question pending, so the person
 * can tell them apart. A question that names no asker is the conversation's agent's. Agents are
 * named by their titles (`GET /api/agents`), through `title`. Keyed by elicit id.
 */
export function questionAskers(
  questions: readonly ElicitRequest[],
  ownAgent: string | undefined,
  title: (agent: string) => string,
): ReadonlyMap<string, string> {
  const askerOf = (question: ElicitRequest): string | undefined => question.askedBy ?? ownAgent;
  const several = new Set(questions.map(askerOf)).size > 1;
  const words = new Map<string, string>();
  for (const question of questions) {
    const asker = askerOf(question);
    if (asker === undefined || (asker === ownAgent && !several)) continue;
    words.set(question.elicitId, `${asks(title(asker))}…`);
  }
  return words;
}

/** A question in words, for a screen reader: "The donation helper asks: …", or "Question: …". */
export function questionWords(
  question: ElicitRequest,
  ownAgent: string | undefined,
  title: (agent: string) => string,
): string {
  const asker = question.askedBy;
  const other = asker !== undefined && asker !== ownAgent;
  return `${other ? asks(title(asker)) : 'Question'}: ${question.message}`;
}

/**
 * An asking agent's title for `asks`: its own ("Donation helper"), or, before the agents' list has
 * arrived, "other assistant", never its registered name ("The donations asks").
 */
export function askerTitle(agents: { title(name: string): string | undefined }, agent: string): string {
  return agents.title(agent) ?? 'other assistant';
}

/**
 * The composer's words under cards of several askers (or another agent's): typed words answer the
 * oldest question waiting (PROTOCOL.md), so it says whose, short enough for a phone's composer:
 * "Answer the coach…" (the agent's name for itself), else from its title.
 */
export function answerPlaceholder(speaker: string | undefined, title: string): string {
  return `Answer ${speaker ?? `the ${lowerFirst(title)}`}…`;
}

/** "The donation helper asks", from the agent's title ("Donation helper"). */
export function asks(title: string): string {
  return `The ${lowerFirst(title)} asks`;
}

/** "Donation helper" → "donation helper"; an initialism ("MCP tools") keeps its capitals. */
function lowerFirst(title: string): string {
  const second = title.charAt(1);
  return second !== '' && second === second.toUpperCase() && second !== second.toLowerCase()
    ? title
    : title.charAt(0).toLowerCase() + title.slice(1);
}
