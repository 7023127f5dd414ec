import * as z from 'zod';
import { ActivitySchema, PersonSchema } from './agents/concierge';
import { JsonSchema } from './node';

/**
 * `DELETE /api/account`: the password confirms it is the account's holder deleting it. An account
 * with no password (made through an identity provider, or signing in with passkeys only) has none
 * to give: a sign-in within the last RECENT_SIGN_IN_MINUTES confirms it instead.
 */
export const DeleteAccountRequestSchema = z.object({ password: z.string().min(1).max(256).optional() });
export type DeleteAccountRequest = z.infer<typeof DeleteAccountRequestSchema>;

/** How recent a sign-in confirms the deletion of an account that has no password. */
export const RECENT_SIGN_IN_MINUTES = 10;

/** `GET /api/account/deletion`: how deleting the caller's account is confirmed. */
export const AccountDeletionSchema = z.object({
  /** the account's password, or (an account without one) a recent sign-in */
  confirmWith: z.enum(['password', 'recent-sign-in']),
  /**
   * With `recent-sign-in`: until when this session's sign-in confirms it; null when it no longer
   * does (or the caller uses a personal access token, which never deletes an account).
   */
  recentUntil: z.string().nullable(),
});
export type AccountDeletionInfo = z.infer<typeof AccountDeletionSchema>;

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
 * and what their conversations changed of the items, as stored (a classification is exported as it was written, whatever version of it that was).
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
  /**
   * what each conversation's picks changed, oldest first: the activity before and after, and
   * whether a rewind undid it (it is redone if the conversation returns to that branch)
   */
  changes: z.array(
    z.object({
      conversationId: z.string(),
      changeId: z.string(),
      activityId: z.string(),
      before: z.object({ status: z.string(), classification: JsonSchema }),
      after: z.object({ status: z.string(), classification: JsonSchema }),
      undone: z.boolean(),
    }),
  ),
});
export type ExportedConcierge = z.infer<typeof ExportedConciergeSchema>;
