import * as z from 'zod';
import { ActivitySchema, PersonSchema } from './agents/concierge';
import { JsonSchema } from './node';

/** `DELETE /api/account`: the password confirms it is the account's holder deleting it. */
export const DeleteAccountRequestSchema = z.object({ password: z.string().min(1).max(256) });
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;

/** The archive `GET /api/account/export` sends is saved under this name (the date is the day's, UTC). */
export function exportFileName(at: Date = new Date()): string {
  return `sweatpants-export-${at.toISOString().slice(0, 10)}.zip`;
}

/** `account.json` in the export: who the archive belongs to (never the password, not even its hash). */
export const ExportedAccountSchema = z.object({
  id: z.string(),
  email: z.string(),
  displayName: z.string(),
  createdAt: z.string(),
});
export type ExportedAccount = z.infer<typeof ExportedAccountSchema>;

/**
 * `conversations/<id>-<slug>/conversation.json` in the export. `archived` says the owner deleted
 * it from their list (it is in the archive all the same: it is still theirs until the account goes).
 */
export const ExportedConversationSchema = z.object({
  id: z.string(),
  /** the agent's registered name: `tidying`, `concierge`, … */
  agent: z.string(),
  title: z.string(),
  /** the node HEAD points at: the last node of transcript.md's path */
  head: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  archived: z.boolean(),
  archivedAt: z.string().nullable(),
});
export type ExportedConversation = z.infer<typeof ExportedConversationSchema>;

/**
 * `concierge.json` in the export: the inbox items and people the concierge keeps for the person,
 * as stored (a classification is exported as it was written, whatever version of it that was).
 */
export const ExportedConciergeSchema = z.object({
  activities: z.array(
    ActivitySchema.extend({
      classification: JsonSchema,
      createdAt: z.string(),
      updatedAt: z.string(),
    }),
  ),
  people: z.array(PersonSchema),
});
export type ExportedConcierge = z.infer<typeof ExportedConciergeSchema>;
