import { context, trace, type Context } from '@opentelemetry/api';
import type { ConversationPort } from '@sweatpants/agent-runtime/host';
import type { PortError, Result, TreeNode } from '@sweatpants/domain';
import { GEN_AI, SWEATPANTS } from './span-attributes';
import { tracer } from './tracer';

/** Where a traced port's spans go, and whom it tells of the answers it stored. */
export interface PortSpans {
  /** the context an append's span starts under: the command whose turn writes */
  parent: (conversationId: string) => Context;
  /** a `response` node was stored: the question it answers waits no more */
  answered: (conversationId: string, elicitId: string) => void;
}

/**
 * `port`, each write (a turn's durability point, or an attempt's return: one compare-and-swap of
 * HEAD) an `append` or `return` span under the command whose turn writes, with pg's spans of its
 * statements inside it. Reads pass through as they are: pg's own spans show them.
 */
export function tracedPort(port: ConversationPort, spans: PortSpans): ConversationPort {
  async function traced(
    name: string,
    input: { conversationId: string; nodes: TreeNode[] },
    write: () => Promise<Result<{ head: string }, PortError>>,
  ): Promise<Result<{ head: string }, PortError>> {
    const parent = spans.parent(input.conversationId);
    const span = tracer.startSpan(
      name,
      {
        attributes: {
          [GEN_AI.conversationId]: input.conversationId,
          [SWEATPANTS.nodeCount]: input.nodes.length,
          [SWEATPANTS.nodeKinds]: input.nodes.map((node) => node.kind),
        },
      },
      parent,
    );
    try {
      const written = await context.with(trace.setSpan(parent, span), write);
      if (!written.ok) span.setAttribute('error.type', written.error.code);
      else
        for (const node of input.nodes) {
          const elicitId: unknown = node.kind === 'response' ? node.payload['elicitId'] : undefined;
          if (typeof elicitId === 'string') spans.answered(input.conversationId, elicitId);
        }
      return written;
    } finally {
      span.end();
    }
  }

  return {
    queue: port.queue,
    path: (conversationId) => port.path(conversationId),
    pathFromSummary: (conversationId) => port.pathFromSummary(conversationId),
    build: (input) => port.build(input),
    requestCompaction: (input) => port.requestCompaction(input),
    append: (input) =>
      traced(
        'append',
        { conversationId: input.conversationId, nodes: input.runs.flatMap((r) => r.nodes) },
        () => port.append(input),
      ),
    returnTo: (input) => traced('return', input, () => port.returnTo(input)),
  };
}
