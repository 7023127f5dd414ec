import * as z from 'zod';
import { InlinePhotoSchema } from './node';

/**
 * What a person may send as one message, the same for the api and the web client: the client
 * shows the limit and refuses past it, the api checks it again (a 400 naming the field).
 */
export const MAX_MESSAGE_LENGTH = 20_000;
/** How many photos one message may carry. */
export const MAX_MESSAGE_PHOTOS = 8;

/** The text of a message that must say something (an edit). */
export const MessageTextSchema = z.string().trim().min(1).max(MAX_MESSAGE_LENGTH);

/**
 * A message's parts as a request sends them: text, photos, or both, but not neither. Photos come
 * inline (`{mediaType, data}`); the api stores them and the node holds Photo references.
 */
export const messageParts = {
  text: z.string().trim().max(MAX_MESSAGE_LENGTH),
  photos: z.array(InlinePhotoSchema).max(MAX_MESSAGE_PHOTOS).optional(),
};

/** Refuses a message with neither words nor a photo, naming `text` as PROTOCOL.md's 400 does. */
export function saysSomething<T extends { text: string; photos?: unknown[] | undefined }>(
  schema: z.ZodType<T>,
): z.ZodType<T> {
  return schema.refine((m) => m.text.length > 0 || (m.photos?.length ?? 0) > 0, {
    message: 'a message needs words or a photo',
    path: ['text'],
  });
}
