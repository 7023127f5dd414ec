import * as z from 'zod';
import { NodeIdSchema, PhotoSchema, type TreeNode } from '../node';
import { MAX_MESSAGE_PHOTOS, messageParts } from '../message';

/**
 * A message the person sent while the agent was working with nothing to ask (seed 004: requests
 * queue by default). It is stored at once, beside the tree, so nothing is lost; the agent takes
 * the queue's first at its next chat prompt, in the order they were sent, and only then does it
 * become a `user` node on the path (a node's id is the hash of its parent and content, and its
 * parent is only known then). Until it is taken the person may withdraw it.
 */
export const QueuedMessageSchema = z.object({
  /** 64 hex characters like a node id; the `user` node that takes it says `queuedId: id` */
  id: NodeIdSchema,
  text: messageParts.text,
  photos: PhotoSchema.array().max(MAX_MESSAGE_PHOTOS).optional(),
  authorId: z.string(),
  createdAt: z.string(),
});
export type QueuedMessage = z.infer<typeof QueuedMessageSchema>;

/**
 * A queued message as PROTOCOL.md's answer to a send shows it: a `user` node whose payload says
 * `queued: true`, under the HEAD it was sent at. It is not in the tree yet: when the agent takes
 * it, the node on the path is a new one (under the HEAD of then) whose payload says `queuedId`.
 */
export function queuedNode(
  message: QueuedMessage,
  conversationId: string,
  sentAt: { id: string; depth: number },
): TreeNode<'user'> {
  return {
    id: message.id,
    conversationId,
    parentId: sentAt.id,
    depth: sentAt.depth + 1,
    kind: 'user',
    payload: {
      text: message.text,
      ...(message.photos?.length ? { photos: message.photos } : {}),
      queued: true,
    },
    authorId: message.authorId,
    createdAt: message.createdAt,
  };
}
