import type { Json } from './node';
import type { TreeNode } from './node';

/**
 * An agent's state as a pure fold over the path's nodes (DESIGN.md, event-sourced state). The tree
 * store caches snapshots of it keyed by `name` and `version`: bump the version whenever `apply`
 * changes meaning, and old snapshots are ignored.
 */
export interface StateReducer<S extends Json = Json> {
  name: string;
  version: number;
  initial: S;
  apply(state: S, node: TreeNode): S;
}

/** Folds a whole path: what the state is at its last node. */
export function foldPath<S extends Json>(reducer: StateReducer<S>, path: readonly TreeNode[]): S {
  return path.reduce((state, node) => reducer.apply(state, node), reducer.initial);
}
