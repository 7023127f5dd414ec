import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, ModelMessage, ModelRequest, ToolSpec } from '@sweatpants/agent-runtime';
import type { OfflineModel } from '@sweatpants/agent-runtime/offline';
import type { Json } from '@sweatpants/domain';
import { splitNotes } from './as-the-model-reads';
import type { FakeBlock, FakeStep } from './fake-anthropic-steps';

type Block = {
  type: string;
  text?: string;
  id?: string;
  name?: string;
  input?: Json;
  tool_use_id?: string;
  content?: string | { type: string; text?: string }[];
  is_error?: boolean;
  source?: { media_type?: string; data?: string };
  cache_control?: unknown;
};

/**
 * A responder for the fake Anthropic server (`fake.respond(...)`) that answers each request as
 * `offline` would answer the same request in the runtime's terms: long sessions on the real SDK,
 * the real adapter and the fake's cache accounting, with no script to write. The request is read
 * back as the adapter wrote it: the system text, the notes after the last user message's cache
 * mark, each block in the runtime's shape.
 *
 * @example
 * fake.respond(offlineResponder(new OfflineModel(TIDYING_OFFLINE_RULES)));
 */
export function offlineResponder(offline: OfflineModel): (body: MessageCreateParams) => FakeStep {
  return (body) => {
    const { content } = offline.answer(toModelRequest(body)).reply;
    const blocks: FakeBlock[] = content.map((b) =>
      b.type === 'text'
        ? { type: 'text', text: b.text }
        : { type: 'tool_use', id: b.id, name: b.name, input: b.input as { [key: string]: Json } },
    );
    return { kind: 'reply', content: blocks };
  };
}

/** A Messages API body back in the runtime's terms (what the adapter made it from). */
export function toModelRequest(body: MessageCreateParams): ModelRequest {
  const system =
    typeof body.system === 'string' ? body.system : (body.system ?? []).map((b) => b.text).join('\n\n');
  const raw = body.messages.map((m) => ({
    role: m.role,
    content: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content as Block[]),
  }));
  let notes: string | undefined;
  const last = raw.at(-1);
  const split = last?.role === 'user' ? splitNotes(last.content) : null;
  if (last && split) {
    notes = split.notes;
    // notes after an assistant message go in a message of their own (see withNotes)
    if (split.kept.length > 0) last.content = split.kept;
    else raw.pop();
  }
  const messages: ModelMessage[] = raw.map((m) => ({
    role: m.role === 'assistant' ? 'assistant' : 'user',
    content: m.content.map(toContentBlock),
  }));
  const tools: ToolSpec[] = (body.tools ?? []).map((t) => {
    const tool = t as { name: string; description?: string; input_schema: ToolSpec['inputSchema'] };
    return { name: tool.name, description: tool.description ?? '', inputSchema: tool.input_schema };
  });
  const choice = body.tool_choice;
  return {
    system,
    messages,
    tools,
    ...(notes !== undefined ? { notes } : {}),
    ...(choice?.type === 'tool' ? { toolChoice: choice.name } : {}),
  };
}

function toContentBlock(block: Block): ContentBlock {
  switch (block.type) {
    case 'image':
      return {
        type: 'image',
        mediaType: (block.source?.media_type ?? 'image/png') as 'image/png',
        sha256: '0'.repeat(64),
      };
    case 'tool_use':
      return { type: 'tool_use', id: block.id ?? '', name: block.name ?? '', input: block.input ?? {} };
    case 'tool_result':
      return {
        type: 'tool_result',
        toolUseId: block.tool_use_id ?? '',
        content:
          typeof block.content === 'string'
            ? block.content
            : (block.content ?? []).map((c) => c.text ?? '').join(''),
        ...(block.is_error ? { isError: true } : {}),
      };
    default:
      return { type: 'text', text: block.text ?? '' };
  }
}
