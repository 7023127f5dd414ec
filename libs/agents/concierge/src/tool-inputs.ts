import {
  ActivityStatusSchema,
  AutonomyTierSchema,
  UrgencySchema,
  type ActivityUpdates,
  type PartialClassification,
} from '@sweatpants/domain';
import * as z from 'zod';

/**
 * The tools' inputs as the model writes them: snake_case, as seed 003 spells the tool calls
 * (`activity_ids`, `autonomy_tier`). They map onto the domain's camelCase types here, once.
 */

export const ClassificationInputSchema = z
  .object({
    activity_type: z.string().min(1).optional(),
    urgency: UrgencySchema.optional(),
    autonomy_tier: AutonomyTierSchema.optional(),
    confidence: z.number().min(0).max(1).optional(),
    personas: z.array(z.string()).optional(),
    reasoning: z.string().optional(),
    suggested_actions: z.array(z.string()).optional(),
    option_framing: z.string().optional(),
  })
  .describe('partial: the fields given replace, the others stay');

export const UpdatesInputSchema = z.object({
  status: ActivityStatusSchema.optional(),
  classification: ClassificationInputSchema.optional(),
});
export type UpdatesInput = z.infer<typeof UpdatesInputSchema>;

export const ActivityIdsSchema = z.array(z.string().min(1)).min(1).max(200);

/** The domain's update for a tool's `updates`. */
export function toActivityUpdates(input: UpdatesInput): ActivityUpdates {
  const c = input.classification;
  const classification: PartialClassification | undefined = c
    ? dropUndefined({
        activityType: c.activity_type,
        urgency: c.urgency,
        autonomyTier: c.autonomy_tier,
        confidence: c.confidence,
        personas: c.personas,
        reasoning: c.reasoning,
        suggestedActions: c.suggested_actions,
        optionFraming: c.option_framing,
      })
    : undefined;
  return dropUndefined({ status: input.status, classification });
}

/** `value` without the fields it does not know: JSON has no undefined. */
function dropUndefined<T extends object>(value: T): Partial<T> {
  const known: Partial<T> = {};
  for (const key in value) if (value[key] !== undefined) known[key] = value[key];
  return known;
}
