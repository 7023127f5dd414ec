/**
 * Deleting a conversation was always archiving it, and is now called so: PendingArchives. This
 * old name stays only while app.component.ts (not this feature's file) imports it, and goes once
 * that file imports PendingArchives from './pending-archives'.
 */
export { PendingArchives as PendingDeletes } from './pending-archives';
