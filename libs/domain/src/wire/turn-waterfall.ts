import * as z from 'zod';
import { NodeIdSchema } from '../node';

/**
 * What a turn's time went to, as the operator's waterfall draws it: a model call, a tool's run, a
 * wait for the person in the middle of the agent's work, or a write of the tree landing.
 */
export const TURN_SPAN_KINDS = ['model', 'tool', 'wait', 'write'] as const;
export type TurnSpanKind = (typeof TURN_SPAN_KINDS)[number];

const Ms = z.number().nonnegative();
const Tokens = z.number().int().nonnegative();

/** The tokens of one or more model calls, as the assistant nodes record them. */
export const TurnTokensSchema = z.object({
  /** input billed in full (what no cache covered) */
  inputTokens: Tokens,
  outputTokens: Tokens,
  cacheWriteTokens: Tokens,
  cacheReadTokens: Tokens,
});
export type TurnTokens = z.infer<typeof TurnTokensSchema>;

/** One bar of a turn's waterfall, placed on the turn's own clock. */
export const TurnSpanSchema = z.object({
  kind: z.enum(TURN_SPAN_KINDS),
  /** what it was, in words: the model, the tool's name, the question's type, how many nodes */
  label: z.string(),
  /** the node that records it: the assistant reply, the tool's result, the answer, a write's last node */
  nodeId: NodeIdSchema,
  /** from the turn's start */
  startMs: Ms,
  durationMs: Ms,
  /**
   * The start was not recorded (a model reply written before the runtime kept `startedAt`): the
   * bar begins at the node before it, so it may be longer than the call was.
   */
  estimated: z.boolean(),
  /** a model call's: the model that answered, its tokens and what they cost in dollars */
  model: z.string().optional(),
  tokens: TurnTokensSchema.optional(),
  costUsd: z.number().nonnegative().optional(),
});
export type TurnSpan = z.infer<typeof TurnSpanSchema>;

/** One turn: from a person's message or answer to the agent's last node before the next one. */
export const TurnWaterfallSchema = z.object({
  /** 1 for the first turn of the path */
  number: z.number().int().positive(),
  /** the person's node that began it */
  nodeId: NodeIdSchema,
  /** what the person said or answered, in short */
  opener: z.string(),
  startedAt: z.iso.datetime(),
  /** from the person's node to the end of the agent's last span */
  durationMs: Ms,
  modelCalls: z.number().int().nonnegative(),
  tokens: TurnTokensSchema,
  /** priced at each model's published prices (the offline model's are 0) */
  costUsd: z.number().nonnegative(),
  /** in the order they began */
  spans: z.array(TurnSpanSchema),
});
export type TurnWaterfall = z.infer<typeof TurnWaterfallSchema>;

/** `GET /api/admin/conversations/:id/turns`: the HEAD path's turns and which ones stand out. */
export const TurnWaterfallsSchema = z.object({
  /** in the order they happened */
  turns: z.array(TurnWaterfallSchema),
  /** every turn's number, the slowest first */
  slowest: z.array(z.number().int().positive()),
  /** every turn's number, the costliest first; equal costs (the offline model's $0) by their tokens */
  costliest: z.array(z.number().int().positive()),
});
export type TurnWaterfalls = z.infer<typeof TurnWaterfallsSchema>;
