import { InMemoryConversationPort, Runner, type Model } from '@sweatpants/agent-runtime/host';
import type { ElicitRequest, Json, TreeNode } from '@sweatpants/domain';
import { createDonations, type CoachTools } from '../src';

/** How a test answers one question: an answer, with progress reported before it if any. */
export type Answer =
  | { action: 'accept'; content: { [key: string]: Json }; progress?: Json[] }
  | { action: 'decline' | 'denied' }
  /** words typed while the question waits, as a person goes off-script */
  | { action: 'type'; text: string };

/** A coach that guesses every item goes to the donation pile, unless the test says otherwise. */
export const coachGuessing = (guess: (item: string) => string): CoachTools & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    *guessPile({ item }) {
      asked.push(item);
      const g = guess(item);
      // as the coach's own tool answers: the bin first, recycling the next best
      const alternatives = g === 'trash' ? ['recycle', 'skip'] : [];
      return { item, guess: g, pile: g === 'place' ? 'belongs' : 'out', alternatives };
    },
  };
};

/** The coach's rule of thumb as the tidying coach has it: "broken", "old" and "empty" go in the bin. */
export const coachByRuleOfThumb = () =>
  coachGuessing((item) => (/\b(broken|old|empty)\b/.test(item) ? 'trash' : 'donate'));

/** Berlin: 930 km from every place in the demo directory. */
export const BERLIN = { lat: 52.52, lng: 13.405 };

export interface Session {
  runner: Runner;
  /** the conversation's store: the whole tree, branches and all */
  port: InMemoryConversationPort;
  asked: ElicitRequest[];
  path(): Promise<TreeNode[]>;
  /** the agent's words on the path, in order */
  replies(): Promise<string[]>;
  /** sends a message and answers each question with `answer` until the agent waits for chat again */
  say(text: string, answer: (q: ElicitRequest) => Answer): Promise<void>;
}

export async function openSession(model: Model, coach: CoachTools): Promise<Session> {
  const port = new InMemoryConversationPort();
  port.create('d1');
  const runner = await Runner.open({
    conversationId: 'd1',
    agent: createDonations(coach).definition,
    port,
    model,
    logs: { write: () => undefined },
  });
  const asked: ElicitRequest[] = [];
  const path = async () => {
    const read = await port.path('d1');
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  return {
    runner,
    port,
    asked,
    path,
    async replies() {
      return (await path())
        .filter((n) => n.kind === 'assistant')
        .map((n) => String(n.payload['text'] ?? ''))
        .filter((t) => t.length > 0);
    },
    async say(text, answer) {
      const sent = await runner.send({ text, authorId: 'u1' });
      if (!sent.ok) throw new Error(sent.error.message);
      const answered = new Set<string>();
      while (runner.pending()[0]?.type !== 'chat') {
        for (const q of runner.elicits.list()) {
          if (answered.has(q.elicitId)) continue;
          answered.add(q.elicitId);
          asked.push(q);
          const a = answer(q);
          if (a.action === 'type') {
            const typed = await runner.send({ text: a.text, authorId: 'u1' });
            if (!typed.ok) throw new Error(typed.error.message);
            continue;
          }
          if (a.action === 'accept') for (const p of a.progress ?? []) runner.elicits.progress(q.elicitId, p);
          // progress is reported before the answer, never sent with it
          const done = runner.answer(
            a.action === 'accept'
              ? { elicitId: q.elicitId, action: 'accept', content: a.content }
              : { elicitId: q.elicitId, action: a.action },
          );
          if (!done.ok) throw new Error(done.error.message);
        }
        await new Promise((r) => setTimeout(r, 2));
      }
      await runner.whenIdle();
    },
  };
}

/** Near Russell Square, London: the demo directory's places are a few hundred metres away. */
export const RUSSELL_SQUARE = { lat: 51.5229, lng: -0.1256 };

/** Fills every question the helper asks on the happy path. */
/**
 * A form filled as a client draws it: the values of only the fields it asks (a field it did not
 * ask is refused, as PROTOCOL.md's 400 says).
 */
export function filled(q: ElicitRequest, values: { [field: string]: Json }): Answer {
  const asked = Object.keys(q.schema?.['properties'] ?? {});
  return {
    action: 'accept',
    content: Object.fromEntries(Object.entries(values).filter(([field]) => asked.includes(field))),
  };
}

export function happyAnswers(q: ElicitRequest): Answer {
  switch (q.type) {
    case 'form':
      return filled(q, { condition: 'good', bags: 2, collection: false });
    case 'location':
      return { action: 'accept', content: RUSSELL_SQUARE, progress: [{ status: 'acquiring' }] };
    case 'clipboard-write':
      return { action: 'accept', content: { success: true } };
    case 'confirm':
      return { action: 'accept', content: { value: true } };
    default:
      return { action: 'decline' };
  }
}
