import type { MessageCreateParams } from '@anthropic-ai/sdk/resources/messages';
import type { FakeRequest } from './fake-anthropic-server';

type Block = { type: string; text?: string; cache_control?: unknown; [key: string]: unknown };

/** A request as the model reads it: see `asTheModelReads`. */
export interface ReadRequest {
  /** the system prompt, then the call's notes */
  system: string;
  /** what the call shows of each notes-free message, without cache marks */
  messages: { role: string; content: string | Block[] }[];
  tools?: { name: string }[];
  tool_choice?: MessageCreateParams['tool_choice'];
}

/**
 * A request the fake received, as the model reads it: its instructions (the system prompt, then
 * the call's notes, which the adapter sends after the conversation so they stay out of the cached
 * prefix) and the conversation without the cache marks. Specs about what an agent tells the model
 * read this, so they do not depend on where caching puts things.
 *
 * @example
 * const act = asTheModelReads(fake.requests[2]!);
 * expect(act.system).toMatch(/Action: ask-function/);
 */
export function asTheModelReads(request: FakeRequest): ReadRequest {
  const body = request.body as unknown as {
    messages: { role: string; content: string | Block[] }[];
    tools?: { name: string }[];
    tool_choice?: MessageCreateParams['tool_choice'];
  };
  const messages = body.messages.map((m) => ({
    role: m.role,
    content: Array.isArray(m.content)
      ? m.content.map(({ cache_control: _mark, ...b }) => b as Block)
      : m.content,
  }));
  let notes = '';
  const last = body.messages.at(-1);
  const split = last?.role === 'user' && Array.isArray(last.content) ? splitNotes(last.content) : null;
  if (split) {
    notes = split.notes;
    const kept = split.kept.map(({ cache_control: _mark, ...b }) => b as Block);
    if (kept.length > 0) messages[messages.length - 1] = { role: 'user', content: kept };
    else messages.pop();
  }
  return {
    system: [request.systemText ?? '', notes].filter(Boolean).join('\n\n'),
    messages,
    ...(body.tools ? { tools: body.tools } : {}),
    ...(body.tool_choice ? { tool_choice: body.tool_choice } : {}),
  };
}

/**
 * The notes of a request's last user message, as the adapter sends them: the text blocks after
 * its cache mark (or, in a message of their own, all of it), and the blocks before; null when the
 * message carries none.
 */
export function splitNotes<B extends { type: string; text?: string; cache_control?: unknown }>(
  content: readonly B[],
): { kept: B[]; notes: string } | null {
  const marked = content.findLastIndex((b) => b.cache_control);
  const after = content.slice(marked + 1);
  if (after.length === 0 || !after.every((b) => b.type === 'text')) return null;
  return { kept: content.slice(0, marked + 1), notes: after.map((b) => b.text ?? '').join('\n\n') };
}
