import type { TurnTree } from './turn-groups';

export const BOX_HEIGHT = 48;
/** a box's width on a desktop; a phone passes a narrower one */
export const BOX_WIDTH = 264;
const ROW_GAP = 16;
const COLUMN_GAP = 20;
const PAD = 12;

export interface LaidOutBox {
  id: string;
  x: number;
  y: number;
  /** 0 for the main line, further right for later branches */
  column: number;
  /** the box's depth: boxes above it to the top */
  row: number;
}

export interface LaidOutEdge {
  id: string;
  from: string;
  to: string;
  /** an SVG path `d`: down from the parent box, across between rows, down into the child */
  d: string;
}

export interface TreeLayout {
  width: number;
  height: number;
  boxWidth: number;
  boxHeight: number;
  boxes: LaidOutBox[];
  edges: LaidOutEdge[];
}

export interface LayoutOptions {
  boxWidth?: number;
  /** ids of the boxes on the HEAD path: at every fork their branch goes straight on */
  onHead?: ReadonlySet<string>;
}

/**
 * Lays the boxes out like a git graph turned on its side: one row per box depth, so the height
 * grows with the messages of the longest branch and not with the nodes folded into them; each
 * branch a column. At a fork the branch on the HEAD path (else the oldest) goes straight down and
 * the others take a column to the right: the lowest one free over all the rows the branch spans, so
 * branches that end early leave their column to later ones and a long session stays narrow.
 */
export function layoutTree(tree: TurnTree, options: LayoutOptions = {}): TreeLayout {
  const boxWidth = options.boxWidth ?? BOX_WIDTH;
  const onHead = options.onHead ?? new Set<string>();
  const groups = tree.groups;
  const straightOn = (id: string): string | undefined => {
    const children = groups.get(id)?.children ?? [];
    return children.find((child) => onHead.has(child)) ?? children[0];
  };

  // Rows each column holds: [first, last] spans of the branches placed in it.
  const taken: [number, number][][] = [];
  const isFree = (column: number, first: number, last: number) =>
    (taken[column] ?? []).every(([a, b]) => last < a || first > b);

  const boxes: LaidOutBox[] = [];
  const columnOf = new Map<string, number>();
  // Branches still to place: their first box and the column they must be right of. A stack, so
  // a branch's own branches are placed before the next one of its parent (as a git graph does).
  const todo: { start: string; after: number }[] = [...tree.roots]
    .reverse()
    .map((start) => ({ start, after: -1 }));
  while (todo.length > 0) {
    const { start, after } = todo.pop() as (typeof todo)[number];
    const line: string[] = [];
    for (let id: string | undefined = start; id !== undefined; id = straightOn(id)) line.push(id);
    const first = groups.get(start)?.depth ?? 0;
    const last = first + line.length - 1;
    let column = after + 1;
    while (!isFree(column, first, last)) column++;
    (taken[column] ??= []).push([first, last]);
    const forks: { start: string; after: number }[] = [];
    for (const id of line) {
      const group = groups.get(id);
      if (!group) continue;
      columnOf.set(id, column);
      boxes.push({ id, column, row: group.depth, x: xOf(column, boxWidth), y: yOf(group.depth) });
      const next = straightOn(id);
      for (const child of group.children) if (child !== next) forks.push({ start: child, after: column });
    }
    todo.push(...forks.reverse());
  }

  const byId = new Map(boxes.map((box) => [box.id, box]));
  const edges: LaidOutEdge[] = [];
  for (const box of boxes) {
    const parentId = groups.get(box.id)?.parent;
    const parent = parentId ? byId.get(parentId) : undefined;
    if (!parent) continue;
    edges.push({
      id: `${parent.id}>${box.id}`,
      from: parent.id,
      to: box.id,
      d: edgePath(parent, box, boxWidth),
    });
  }
  const columns = Math.max(0, ...boxes.map((box) => box.column + 1));
  const rows = Math.max(0, ...boxes.map((box) => box.row + 1));
  return {
    width: columns === 0 ? 0 : xOf(columns, boxWidth) - COLUMN_GAP + PAD,
    height: rows === 0 ? 0 : yOf(rows) - ROW_GAP + PAD,
    boxWidth,
    boxHeight: BOX_HEIGHT,
    boxes,
    edges,
  };
}

function xOf(column: number, boxWidth: number): number {
  return PAD + column * (boxWidth + COLUMN_GAP);
}

function yOf(row: number): number {
  return PAD + row * (BOX_HEIGHT + ROW_GAP);
}

function edgePath(from: LaidOutBox, to: LaidOutBox, boxWidth: number): string {
  const x1 = from.x + boxWidth / 2;
  const y1 = from.y + BOX_HEIGHT;
  const x2 = to.x + boxWidth / 2;
  const y2 = to.y;
  if (x1 === x2) return `M${x1},${y1} L${x2},${y2}`;
  const across = y2 - ROW_GAP / 2;
  return `M${x1},${y1} L${x1},${across} L${x2},${across} L${x2},${y2}`;
}
