import type { ElicitRequest } from '@sweatpants/domain';
import type { AgentDefinition } from '../../src';
import { Runner, silentOutbox, type Model } from '../../src/host';
import { InMemoryConversationPort } from '../../src/storage/in-memory-port';

/**
 * One conversation in memory for a runner spec: runners opened on it (a second one is rebuilt from
 * the tree, as after a restart), what their outbox was told, and a wait for their questions.
 *
 * @example
 * const s = runnerSession(Coach.definition, () => new OfflineModel());
 * const runner = await s.open();
 * await runner.send({ text: 'go', authorId: 'u1' });
 * const [first, second] = await s.questions(runner, 2);
 */
export function runnerSession(agent: AgentDefinition, model: () => Model) {
  const port = new InMemoryConversationPort();
  port.create('c1');
  /** every question the outbox was told of, in order */
  const asked: ElicitRequest[] = [];
  /** every question withdrawn, and why */
  const withdrawn: { elicitId: string; reason: string }[] = [];
  let heard = () => undefined as void;
  const open = () =>
    Runner.open({
      conversationId: 'c1',
      agent,
      port,
      model: model(),
      outbox: {
        ...silentOutbox,
        elicit: (request) => {
          asked.push(request);
          heard();
        },
        withdrawn: (elicitId, reason) => withdrawn.push({ elicitId, reason }),
      },
    });
  /** Resolves once the runner holds `n` questions (each is told to the outbox as it is asked). */
  const questions = async (runner: Runner, n: number): Promise<ElicitRequest[]> => {
    while (runner.pending().filter((r) => r.type !== 'chat').length < n) {
      await new Promise<void>((resolve) => (heard = resolve));
    }
    return runner.pending();
  };
  const path = async () => {
    const read = await port.path('c1');
    if (!read.ok) throw new Error(read.error.message);
    return read.value;
  };
  return { open, asked, withdrawn, questions, path };
}
