import * as z from 'zod';
import { ConversationListQuerySchema } from '../conversation-api';

/**
 * `GET /api/conversations`'s query: PROTOCOL.md's `q`, `limit` and `before`, and `archived`, which
 * lists the conversations the caller archived instead of those in their list (DELETE archives, and
 * the person must be able to find one again to unarchive it). Spelled `true` or `false` in the URL.
 */
export const ConversationListFilterSchema = ConversationListQuerySchema.extend({
  archived: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .transform((value) => value === 'true')
    .optional(),
});
export type ConversationListFilter = z.infer<typeof ConversationListFilterSchema>;
