/** A run of a message: plain words, or a web address the person can open. */
export interface MessagePart {
  text: string;
  /** set on a web address: where the link goes */
  href?: string;
}

/** http(s) addresses, up to whitespace; a closing stop or bracket after one is the sentence's. */
const ADDRESS = /https?:\/\/[^\s<>"']+[^\s<>"'.,;:!?)\]]/g;

/**
 * A question's message with its web addresses as links: an outside MCP server that wants the
 * person to open a page (a sign-in, a payment) names it in the message, and the card offers it.
 *
 * @example
 * linkedParts('Sign in first.\n\nOpen https://example.com/login.');
 * // [{ text: 'Sign in first.\n\nOpen ' }, { text: 'https://example.com/login', href: 'https://example.com/login' }, { text: '.' }]
 */
export function linkedParts(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let from = 0;
  for (const match of message.matchAll(ADDRESS)) {
    const at = match.index ?? 0;
    if (at > from) parts.push({ text: message.slice(from, at) });
    parts.push({ text: match[0], href: match[0] });
    from = at + match[0].length;
  }
  if (from < message.length || parts.length === 0) parts.push({ text: message.slice(from) });
  return parts;
}
