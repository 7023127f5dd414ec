/**
 * The tree store's SQL: each statement a named constant, documented with its parameters, beside
 * the interface of the row it returns. The classes and functions of the store (TreeReader,
 * ConversationReader, ReflogReader, fsck, StateFold, MessageQueue, …) import them from here.
 *
 * - tree.ts: nodes, segments, refs and state snapshots (paths, children, tree pages, fsck's reads)
 * - conversations.ts: conversation records (reads, pages, titles, archiving, HEAD's lock)
 * - reflog.ts: the reflog (pages, entries, the admin audit, recover, fsck's reads)
 * - queue.ts: queued messages
 *
 * The calls of the stored functions (tree_create, tree_append, tree_move, tree_gc) stay in
 * ../store-functions.ts, each beside the typed wrapper that names its arguments; their bodies are
 * in migrations/sql.
 */
export * from './conversations';
export * from './queue';
export * from './reflog';
export * from './tree';
