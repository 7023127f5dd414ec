import { SpanKind, type Attributes, type Context } from '@opentelemetry/api';
import type { ModelReply, ModelRequest, ModelUsage } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { GEN_AI } from './span-attributes';
import { markFailed, markThrown } from './span-outcome';
import { tracer } from './tracer';

/** Where a model call's span goes, and what it says beside the conventions' attributes. */
export interface ModelSpans {
  /** the context the span starts under: the command whose turn asks the model */
  parent: () => Context;
  conversationId?: string;
  /** the prompt and the reply as the conventions' `gen_ai.*.messages` (the operator opted in) */
  captureContent: boolean;
}

/**
 * `model`, each call a GenAI `chat` span (CLIENT) under `spans.parent()`: provider, request and
 * response model, finish reason, and the usage the reply carries, which is what the runtime
 * records on the assistant node (the offline model's estimate included). A failed call is an
 * error span with the model error's code as `error.type`.
 *
 * @example
 * const model = tracedModel(claude, { parent: () => context.active(), captureContent: false });
 */
export function tracedModel(model: Model, spans: ModelSpans): Model {
  const provider = model.kind === 'claude' ? 'anthropic' : model.name;
  return {
    kind: model.kind,
    name: model.name,
    complete: async (request, options) => {
      const requested = request.model ?? model.name;
      const span = tracer.startSpan(
        `chat ${requested}`,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            [GEN_AI.operationName]: 'chat',
            [GEN_AI.providerName]: provider,
            [GEN_AI.requestModel]: requested,
            ...(request.maxTokens !== undefined ? { [GEN_AI.requestMaxTokens]: request.maxTokens } : {}),
            ...(spans.conversationId ? { [GEN_AI.conversationId]: spans.conversationId } : {}),
            ...(spans.captureContent ? promptAttributes(request) : {}),
          },
        },
        spans.parent(),
      );
      try {
        const result = await model.complete(request, options);
        if (result.ok) span.setAttributes(replyAttributes(result.value, spans.captureContent));
        else markFailed(span, result.error.code, result.error.message);
        return result;
      } catch (error) {
        markThrown(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
  };
}

/** The conventions' usage: input counts every input token, the cache's reads and writes included. */
export function usageAttributes(usage: ModelUsage): Attributes {
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  return {
    [GEN_AI.inputTokens]: usage.inputTokens + read + written,
    [GEN_AI.outputTokens]: usage.outputTokens,
    [GEN_AI.cacheReadTokens]: read,
    [GEN_AI.cacheCreationTokens]: written,
  };
}

function replyAttributes(reply: ModelReply, captureContent: boolean): Attributes {
  return {
    [GEN_AI.responseModel]: reply.model,
    [GEN_AI.finishReasons]: [reply.stopReason],
    ...usageAttributes(reply.usage),
    ...(captureContent
      ? { [GEN_AI.outputMessages]: JSON.stringify([{ role: 'assistant', content: reply.content }]) }
      : {}),
  };
}

function promptAttributes(request: ModelRequest): Attributes {
  return {
    [GEN_AI.systemInstructions]: request.notes ? `${request.system}\n\n${request.notes}` : request.system,
    [GEN_AI.inputMessages]: JSON.stringify(request.messages),
  };
}
