import type { TreeListingNode } from '@sweatpants/domain';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';

import { nodePreview } from '../conversation/node-text';

export const NODE_WIDTH = 168;
export const NODE_HEIGHT = 46;

export interface LaidOutNode {
  id: string;
  x: number;
  y: number;
  kind: string;
  label: string;
}

export interface LaidOutEdge {
  id: string;
  from: string;
  to: string;
  /** an SVG path `d` through the edge's bend points */
  d: string;
}

export interface TreeLayout {
  width: number;
  height: number;
  nodes: LaidOutNode[];
  edges: LaidOutEdge[];
}

type ElkLayouter = { layout(graph: ElkNode): Promise<ElkNode> };
let elk: Promise<ElkLayouter> | null = null;

/** elkjs is large (its Java origins compiled to JS), so it loads on first use, in its own chunk. */
function layouter(): Promise<ElkLayouter> {
  elk ??= import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
  return elk;
}

/**
 * Lays the tree out top-down like a git graph: elk's layered algorithm, children in the order
 * they were created, so the first branch stays left and later branches fan out to the right.
 */
export async function layoutTree(nodes: readonly TreeListingNode[]): Promise<TreeLayout> {
  const ids = new Set(nodes.map((n) => n.id));
  const ordered = [...nodes].sort(
    (a, b) =>
      a.depth - b.depth || Date.parse(a.createdAt) - Date.parse(b.createdAt) || (a.id < b.id ? -1 : 1),
  );
  const edges: ElkExtendedEdge[] = ordered
    .filter((n) => n.parentId !== null && ids.has(n.parentId))
    .map((n) => ({ id: `${n.parentId}>${n.id}`, sources: [n.parentId as string], targets: [n.id] }));
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.layered.considerModelOrder.strategy': 'NODES_AND_EDGES',
      'elk.layered.spacing.nodeNodeBetweenLayers': '28',
      'elk.spacing.nodeNode': '24',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.padding': '[top=16,left=16,bottom=16,right=16]',
    },
    children: ordered.map((n) => ({ id: n.id, width: NODE_WIDTH, height: NODE_HEIGHT })),
    edges,
  };
  const result = await (await layouter()).layout(graph);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return {
    width: result.width ?? 0,
    height: result.height ?? 0,
    nodes: (result.children ?? []).flatMap((child) => {
      const node = byId.get(child.id);
      if (!node) return [];
      return [
        { id: child.id, x: child.x ?? 0, y: child.y ?? 0, kind: node.kind, label: nodePreview(node, 22) },
      ];
    }),
    edges: (result.edges ?? []).map((edge) => {
      const e = edge as ElkExtendedEdge;
      return { id: e.id, from: e.sources[0] ?? '', to: e.targets[0] ?? '', d: edgePath(e) };
    }),
  };
}

function edgePath(edge: ElkExtendedEdge): string {
  const section = edge.sections?.[0];
  if (!section) return '';
  const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint];
  return points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
}
