import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { ModelReply, ModelRequest } from '@sweatpants/agent-runtime';
import type { Model } from '@sweatpants/agent-runtime/host';
import { OfflineModel } from '@sweatpants/agent-runtime/offline';
import { err, ok } from '@sweatpants/domain';
import { tracedModel } from './traced-model';

/**
 * A model call's span as the GenAI conventions describe it, read from the SDK's in-memory
 * exporter (this spec's process registers the SDK's tracer; the api's own spec reads them over
 * OTLP). The models at the edge: the offline model as the product runs it, and one that answers
 * as Claude would, with the prompt cache's figures, or fails.
 */
describe('a traced model call', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  trace.setGlobalTracerProvider(provider);
  afterEach(() => exporter.reset());
  afterAll(() => provider.shutdown());

  const request: ModelRequest = {
    system: 'You help a person tidy.',
    messages: [{ role: 'user', content: [{ type: 'text', text: 'the lamp by the window' }] }],
    tools: [],
  };
  const signal = new AbortController().signal;
  const parent = trace.setSpan(context.active(), provider.getTracer('spec').startSpan('command send'));
  const claudeLike = (reply: Partial<ModelReply>): Model => ({
    kind: 'claude',
    name: 'claude-sonnet-5-5',
    complete: async () =>
      ok({
        content: [{ type: 'text', text: 'Bin it.' }],
        stopReason: 'end_turn',
        usage: { inputTokens: 0, outputTokens: 0 },
        model: 'claude-sonnet-5-5-20260101',
        ...reply,
      }),
  });

  it('is a chat span under the command, with the usage the reply (and so its node) carries, and no text', async () => {
    const model = tracedModel(new OfflineModel(), {
      parent: () => parent,
      conversationId: 'c1',
      captureContent: false,
    });
    const result = await model.complete(request, { signal });
    if (!result.ok) throw new Error(result.error.message);
    const [span] = exporter.getFinishedSpans();
    expect(span?.name).toBe('chat offline');
    expect(span?.parentSpanContext?.spanId).toBe(trace.getSpan(parent)?.spanContext().spanId);
    expect(span?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'offline',
      'gen_ai.conversation.id': 'c1',
      'gen_ai.request.model': 'offline',
      'gen_ai.response.model': 'offline',
      'gen_ai.response.finish_reasons': [result.value.stopReason],
      'gen_ai.usage.input_tokens': result.value.usage.inputTokens,
      'gen_ai.usage.output_tokens': result.value.usage.outputTokens,
      'gen_ai.usage.cache_read.input_tokens': 0,
      'gen_ai.usage.cache_creation.input_tokens': 0,
    });
  });

  it("counts the cache's reads and writes in the input, as the conventions say, and names Anthropic", async () => {
    const usage = { inputTokens: 12, outputTokens: 40, cacheReadTokens: 3000, cacheWriteTokens: 500 };
    const model = tracedModel(claudeLike({ usage }), { parent: () => parent, captureContent: false });
    await model.complete({ ...request, model: 'claude-haiku-5' }, { signal });
    expect(exporter.getFinishedSpans()[0]).toMatchObject({
      name: 'chat claude-haiku-5',
      attributes: {
        'gen_ai.provider.name': 'anthropic',
        'gen_ai.request.model': 'claude-haiku-5',
        'gen_ai.response.model': 'claude-sonnet-5-5-20260101',
        'gen_ai.usage.input_tokens': 3512,
        'gen_ai.usage.output_tokens': 40,
        'gen_ai.usage.cache_read.input_tokens': 3000,
        'gen_ai.usage.cache_creation.input_tokens': 500,
      },
    });
  });

  it('carries the prompt and the reply only when the operator opted in', async () => {
    const model = tracedModel(claudeLike({}), { parent: () => parent, captureContent: true });
    await model.complete(request, { signal });
    const attributes = exporter.getFinishedSpans()[0]?.attributes ?? {};
    expect(attributes['gen_ai.system_instructions']).toBe('You help a person tidy.');
    expect(attributes['gen_ai.input.messages']).toContain('the lamp by the window');
    expect(attributes['gen_ai.output.messages']).toContain('Bin it.');
  });

  it("is an error span with the model error's code when the call fails", async () => {
    const busy: Model = {
      kind: 'claude',
      name: 'claude-sonnet-5-5',
      complete: async () => err({ code: 'overloaded', message: 'overloaded after 4 tries', status: 529 }),
    };
    await tracedModel(busy, { parent: () => parent, captureContent: false }).complete(request, { signal });
    const [span] = exporter.getFinishedSpans();
    expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'overloaded after 4 tries' });
    expect(span?.attributes['error.type']).toBe('overloaded');
  });
});
