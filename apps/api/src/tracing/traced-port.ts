import { context, trace, type Context } from '@opentelemetry/api';
import type { ConversationPort } from '@sweatpants/agent-runtime/host';
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
 * `port`, each append (a turn's durability point: one compare-and-swap of HEAD) an `append` span
 * under the command whose turn writes, with pg's spans of its statements inside it. Reads pass
 * through as they are: pg's own spans show them.
 */
export function tracedPort(port: ConversationPort, spans: PortSpans): ConversationPort {
  return {
    queue: port.queue,
    path: (conversationId) => port.path(conversationId),
    pathFromSummary: (conversationId) => port.pathFromSummary(conversationId),
    build: (input) => port.build(input),
    requestCompaction: (input) => port.requestCompaction(input),
    append: async (input) => {
      const parent = spans.parent(input.conversationId);
      const span = tracer.startSpan(
        'append',
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
        const written = await context.with(trace.setSpan(parent, span), () => port.append(input));
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
    },
  };
}
