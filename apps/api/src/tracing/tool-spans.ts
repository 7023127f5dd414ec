import type { Context } from '@opentelemetry/api';
import { ToolCalls } from '@sweatpants/agent-runtime';
import type { Operation } from 'effection';
import { GEN_AI } from './span-attributes';
import { markFailed, markThrown } from './span-outcome';
import { tracer } from './tracer';

/**
 * Middleware for a turn's scope: every tool the agent runs is a GenAI `execute_tool <name>` span
 * under `parent()` (the command whose turn it is). It surrounds ToolCalls, so a call the journal
 * replays from the tree (it ran before) makes no span; a tool's error result is an error span.
 *
 * @example
 * provide: function* () { yield* toolSpans(() => context, conversationId); }
 */
export function* toolSpans(parent: () => Context, conversationId: string): Operation<void> {
  yield* ToolCalls.around({
    *execute([tool, input], next) {
      const span = tracer.startSpan(
        `execute_tool ${tool.name}`,
        {
          attributes: {
            [GEN_AI.operationName]: 'execute_tool',
            [GEN_AI.toolName]: tool.name,
            [GEN_AI.toolType]: 'function',
            [GEN_AI.conversationId]: conversationId,
          },
        },
        parent(),
      );
      try {
        const outcome = yield* next(tool, input);
        if (outcome.kind === 'error') markFailed(span, 'tool_error', outcome.message);
        return outcome;
      } catch (error) {
        markThrown(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  });
}
