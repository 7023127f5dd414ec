import * as z from 'zod';
import { NodeIdSchema } from './node';

/** Every reason HEAD moves; each move writes exactly one reflog row with one of these. */
export const REFLOG_ACTIONS = [
  'create',
  'append',
  'rewind',
  'edit',
  'regenerate',
  'cancel',
  'recover',
  'compact',
  'fork',
  'return',
] as const;
export const ReflogActionSchema = z.enum(REFLOG_ACTIONS);
export type ReflogAction = z.infer<typeof ReflogActionSchema>;

/** A ref moved without appending nodes (append, edit, compact and fork write nodes as they move). */
export const MOVE_ACTIONS = [
  'rewind',
  'regenerate',
  'cancel',
  'recover',
  'return',
] as const satisfies readonly ReflogAction[];
export type MoveAction = (typeof MOVE_ACTIONS)[number];

export const ReflogEntrySchema = z.object({
  id: z.string(),
  /** n in `HEAD@{n}`: 0 is the newest entry */
  index: z.number().int().nonnegative(),
  ref: z.string(),
  oldHead: NodeIdSchema.nullable(),
  newHead: NodeIdSchema,
  action: ReflogActionSchema,
  actorId: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
/** One move of a ref (PROTOCOL.md, ReflogEntry). */
export type ReflogEntry = z.infer<typeof ReflogEntrySchema>;

/** A reflog entry as the admin audit sees it: which conversation, whose. */
export interface AdminReflogEntry extends ReflogEntry {
  conversationId: string;
  ownerId: string;
}
