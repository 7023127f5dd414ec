const HASH = /\b[0-9a-f]{64}\b/gi;
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

/** A text from the api with its 64-character hashes and UUIDs cut to a short, readable stub. */
export function withoutIds(text: string): string {
  return text.replace(HASH, (id) => `${id.slice(0, 7)}…`).replace(UUID, (id) => `${id.slice(0, 8)}…`);
}
