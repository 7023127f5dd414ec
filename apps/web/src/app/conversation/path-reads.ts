import type { TreeNode } from '@sweatpants/domain';
import { extendedBy } from './tree-updates';

/**
 * Reads of HEAD's path while the socket keeps delivering nodes. A node delivered while a read is in
 * flight may be newer than what the read returns (a regenerated reply lands just after the move it
 * follows): those that extend the path read are added to it, in the order they came. Reads may
 * overlap (a burst of moves): only the latest begun is kept.
 */
export class PathReads {
  private begun = 0;
  private arrived: TreeNode[] | null = null;

  /** A node the socket delivered: kept for the read in flight, if any. */
  delivered(node: TreeNode): void {
    this.arrived?.push(node);
  }

  /** The path `read` gives, extended by what arrived meanwhile; null when a newer read began. */
  async read(read: () => Promise<TreeNode[]>): Promise<TreeNode[] | null> {
    const ticket = ++this.begun;
    const arrived: TreeNode[] = [];
    this.arrived = arrived;
    const nodes = await read();
    if (ticket !== this.begun) return null;
    this.arrived = null;
    return extendedBy(nodes, arrived);
  }
}
