/**
 * Request bodies (and Socket.IO messages) are JSON. 25 MB because a user message may carry a few
 * phone photos as base64 (a 3-5 MB JPEG grows by a third); anything larger is a 413 `too_large`.
 */
export const JSON_BODY_LIMIT_BYTES = 25 * 1024 * 1024;
