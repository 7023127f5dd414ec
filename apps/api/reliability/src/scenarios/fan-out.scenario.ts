import { Verdict, type Scenario } from '../scenario';
import { apiUrl } from '../support/cluster-handle';
import { answerNext, connectTab, joinOrThrow, signUp } from '../support/session';

const TURNS = 4;

/**
 * 1. Two api processes, one Socket.IO client on each, joined to the same conversation: both see
 * every node appended and every HEAD move, whichever process drives the conversation.
 */
export const fanOutScenario: Scenario = {
  id: 1,
  name: 'fan-out: a client on each of two apis sees every node and HEAD move',
  async run(ctx) {
    const cluster = await ctx.startCluster({ apis: 2, workers: 0 });
    const { user } = await signUp(cluster);
    const conversation = await user.createConversation('tidying');
    const a = await connectTab(apiUrl(cluster, 'api-1'), user.token);
    const b = await connectTab(apiUrl(cluster, 'api-2'), user.token);
    const verdict = new Verdict();
    try {
      await joinOrThrow(a, conversation.id);
      await joinOrThrow(b, conversation.id);
      // What existed before both joined is not theirs to have been sent.
      const before = new Set((await user.tree(conversation.id)).map((n) => n.id));
      const reflogBefore = new Set((await user.reflog(conversation.id)).map((e) => e.id));
      const answered = new Set<string>();
      for (let turn = 0; turn < TURNS; turn++) {
        const result = await answerNext(a, conversation.id, answered, turn);
        verdict.check(result.error === undefined, `turn ${turn}: answer refused: ${result.error}`);
      }
      // The agent has asked again: everything of the last turn has been sent by now.
      await a.nextElicit(conversation.id, answered);
      const nodes = (await user.tree(conversation.id)).filter((n) => !before.has(n.id)).map((n) => n.id);
      const moves = (await user.reflog(conversation.id))
        .filter((e) => !reflogBefore.has(e.id))
        .map((e) => e.id);
      for (const [name, client] of [
        ['api-1', a],
        ['api-2', b],
      ] as const) {
        const seenNodes = () => new Set(client.events('node', conversation.id).map((e) => e.node.id));
        const seenMoves = () => new Set(client.events('head', conversation.id).map((e) => e.reflog.id));
        // Events may still be in flight between the processes; wait (bounded) for the last of them.
        await client
          .waitFor(
            () =>
              nodes.every((id) => seenNodes().has(id)) && moves.every((id) => seenMoves().has(id))
                ? true
                : undefined,
            'all events',
            15_000,
          )
          .catch(() => undefined);
        const missingNodes = nodes.filter((id) => !seenNodes().has(id));
        const missingMoves = moves.filter((id) => !seenMoves().has(id));
        verdict.figure(
          `client on ${name}: nodes seen`,
          `${nodes.length - missingNodes.length} of ${nodes.length}`,
        );
        verdict.figure(
          `client on ${name}: HEAD moves seen`,
          `${moves.length - missingMoves.length} of ${moves.length}`,
        );
        verdict.check(missingNodes.length === 0, `client on ${name} missed ${missingNodes.length} node(s)`);
        verdict.check(
          missingMoves.length === 0,
          `client on ${name} missed ${missingMoves.length} HEAD move(s)`,
        );
      }
      verdict.check(nodes.length > 0, 'the conversation grew no nodes: nothing was checked');
    } finally {
      a.close();
      b.close();
    }
    return verdict.outcome();
  },
};
