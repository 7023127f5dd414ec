import { ActivitySchema, toJson, type Activity, type Json } from '@sweatpants/domain';
import * as z from 'zod';
import { RESPOND_TOOL } from '@sweatpants/agent-runtime';
import type { OfflineContext } from '@sweatpants/agent-runtime/offline';
import { REVIEW_FINISHED } from './review-tools';
import { CardOfferSchema, type CardOffer } from './side-quest';

/**
 * What the concierge's offline rules read of the conversation they are asked in: the tool calls
 * made, the activities the last query read, the options last offered; and the lesson a pick
 * teaches (the interview's structured output).
 */

export interface Call {
  name: string;
  input: Json;
  /** index of the message that holds it */
  at: number;
}

/**
 * A message from the user to answer, rather than tool results to read: after a transition tool the
 * synthetic message shares the user turn with that tool's result (a card set aside by "I'm done"
 * ends the review from its own tool: see ./set-aside).
 */
export const fresh = (ctx: OfflineContext) =>
  ctx.toolResults.every(
    (r) => r.name === 'start_review' || r.name === 'finish_review' || r.content.startsWith(REVIEW_FINISHED),
  );

/** In the overview (assistant mode), where a review can be started. */
export const inOverview = (ctx: OfflineContext) => ctx.offers('start_review');

/** Every tool call of the conversation, in order. */
export function callsIn(ctx: OfflineContext): Call[] {
  return ctx.request.messages.flatMap((message, at) =>
    message.content.flatMap((b) => (b.type === 'tool_use' ? [{ name: b.name, input: b.input, at }] : [])),
  );
}

/** The activities the last query read, and where its result is in the conversation. */
export function lastQueried(ctx: OfflineContext): { at: number; activities: Activity[] } | undefined {
  let queried: { at: number; data: Json } | undefined;
  const names = new Map<string, string>();
  ctx.request.messages.forEach((message, at) => {
    for (const block of message.content) {
      if (block.type === 'tool_use') names.set(block.id, block.name);
      if (block.type === 'tool_result' && !block.isError && names.get(block.toolUseId) === 'query_activities')
        queried = { at, data: parse(block.content) };
    }
  });
  if (!queried) return undefined;
  const activities = z.object({ activities: z.array(ActivitySchema) }).safeParse(queried.data);
  return activities.success ? { at: queried.at, activities: activities.data.activities } : undefined;
}

/** The last options offered, if no update followed them. */
export function openOffer(ctx: OfflineContext): CardOffer | undefined {
  const calls = callsIn(ctx);
  const at = calls.findLastIndex((c) => c.name === 'present_options');
  if (at < 0 || calls.slice(at + 1).some((c) => c.name === 'update_activities')) return undefined;
  return CardOfferSchema.safeParse(calls[at]?.input).data;
}

function parse(text: string): Json {
  try {
    const parsed: unknown = JSON.parse(text);
    return toJson(parsed);
  } catch {
    return null;
  }
}

/**
 * The interview's structured output for a pick: what the user chose for mail from whom, for the
 * groups after it (the senders as the query read them; the ids when it did not read them).
 */
export function lesson(
  ctx: OfflineContext,
  label: string,
  ids: readonly string[],
): { name: string; input: Json } {
  const read = lastQueried(ctx)?.activities ?? [];
  const senders = ids.map((id) => {
    const activity = read.find((a) => a.id === id);
    return activity ? activity.senderName || activity.sender : id;
  });
  return {
    name: RESPOND_TOOL,
    input: { learnt: `${label} for mail from ${[...new Set(senders)].join(', ')}` },
  };
}

export function objectField(value: Json, key: string): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value[key] : undefined;
}
