import * as z from 'zod';

/** How long reflog entries are kept, in days: git's gc.reflogExpire and gc.reflogExpireUnreachable. */
export const RetentionPolicySchema = z.object({
  reachableDays: z.number().int().nonnegative(),
  unreachableDays: z.number().int().nonnegative(),
});

/**
 * One garbage collection, as admins see it (`GET /api/admin/gc`): counts, never contents, so the
 * record of what was forgotten does not keep what it forgot.
 */
export const GcRunSchema = z.object({
  id: z.string(),
  /** `schedule`, or the id of the admin who asked */
  requestedBy: z.string(),
  dryRun: z.boolean(),
  policy: RetentionPolicySchema,
  startedAt: z.string(),
  /** null while it runs */
  finishedAt: z.string().nullable(),
  conversations: z.number().int().nonnegative(),
  /** removed, or for a dry run that would be */
  reflogEntries: z.number().int().nonnegative(),
  nodes: z.number().int().nonnegative(),
  /** why it stopped, when it failed */
  error: z.string().nullable(),
});
export type GcRun = z.infer<typeof GcRunSchema>;

export const GcRunListSchema = z.object({ items: z.array(GcRunSchema) });
export type GcRunList = z.infer<typeof GcRunListSchema>;

export const GcRunsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

/** `POST /api/admin/gc`: run now; a dry run reports what would go and removes nothing. */
export const GcRequestSchema = z.strictObject({ dryRun: z.boolean().default(false) });
export type GcRequest = z.infer<typeof GcRequestSchema>;

export const GcQueuedSchema = z.object({ jobId: z.string() });
export type GcQueued = z.infer<typeof GcQueuedSchema>;
