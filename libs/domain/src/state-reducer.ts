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

/** The key a summary node files a reducer's state under. */
export const summaryStateKey = (reducer: Pick<StateReducer, 'name' | 'version'>): string =>
  `${reducer.name}@${reducer.version}`;

/**
 * One step of a fold. A summary node (compaction's squash) replaces nodes the fold needs, so it
 * carries the states folded over the range it covers (`payload.states`, keyed by
 * summaryStateKey): folding past it takes that state, as folding the range would have given.
 */
export function applyNode<S extends Json>(reducer: StateReducer<S>, state: S, node: TreeNode): S {
  if (node.kind === 'summary') {
    const states = (node.payload as { states?: { [key: string]: Json } }).states;
    const saved = states?.[summaryStateKey(reducer)];
    if (saved !== undefined) return saved as S;
  }
  return reducer.apply(state, node);
}

/** Folds a whole path: what the state is at its last node. */
export function foldPath<S extends Json>(reducer: StateReducer<S>, path: readonly TreeNode[]): S {
  return path.reduce((state, node) => applyNode(reducer, state, node), reducer.initial);
}
