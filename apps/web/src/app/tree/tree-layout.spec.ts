import { TurnFixture } from '../../testing/turn-fixture';
import { BOX_HEIGHT, layoutTree, type TreeLayout } from './tree-layout';
import { type TurnTree, turnGroups } from './turn-groups';

function laidOut(f: TurnFixture, head: string): { tree: TurnTree; layout: TreeLayout } {
  const nodes = f.listing(head);
  const tree = turnGroups(nodes, { head });
  const path = f.pathTo(head);
  const onHead = new Set(
    [...tree.groups.values()].filter((g) => path.has(g.nodes[0]?.id ?? '')).map((g) => g.id),
  );
  return { tree, layout: layoutTree(tree, { onHead }) };
}

const at = (layout: TreeLayout, id: string) => {
  const box = layout.boxes.find((b) => b.id === id);
  if (!box) throw new Error(`no box ${id}`);
  return box;
};

describe('layoutTree', () => {
  it('puts each box one row below its parent, the HEAD branch straight on and others to the right', () => {
    const f = new TurnFixture();
    const first = f.turn(f.root(), 'my desk', 'First thing?');
    const old = f.turn(first.end, 'a lamp', 'Keep it?');
    const edited = f.turn(first.end, 'a desk lamp', 'Trash it?');
    // HEAD on the older branch: it stays in the first column though the edit is newer.
    const { layout } = laidOut(f, old.end);
    expect(at(layout, old.user)).toMatchObject({ column: 0, row: 3 });
    expect(at(layout, edited.user)).toMatchObject({ column: 1, row: 3 });
    expect(at(layout, edited.reply).x).toBe(at(layout, edited.user).x);
    expect(at(layout, first.reply).y).toBeLessThan(at(layout, old.user).y);
    // …and on the newer one once HEAD moves there.
    const moved = laidOut(f, edited.end).layout;
    expect(at(moved, edited.user).column).toBe(0);
    expect(at(moved, old.user).column).toBe(1);
  });

  it('draws each edge down from the parent, across between the rows, and down into the child', () => {
    const f = new TurnFixture();
    const first = f.turn(f.root(), 'my desk', 'First thing?');
    f.turn(first.end, 'a lamp', 'Keep it?');
    const edited = f.turn(first.end, 'a desk lamp', 'Trash it?');
    const { layout } = laidOut(f, edited.end);
    expect(layout.edges).toHaveLength(layout.boxes.length - 1);
    for (const edge of layout.edges) expect(edge.d).toMatch(/^M[\d.]+,[\d.]+( L[\d.]+,[\d.]+)+$/);
    const across = layout.edges.filter((e) => e.d.split('L').length === 4);
    expect(across).toHaveLength(1);
    expect(across[0]?.from).toBe(first.reply);
  });

  it('lets a branch that ended use a column again further down', () => {
    const f = new TurnFixture();
    const one = f.turn(f.root(), 'one', 'One?');
    const two = f.turn(one.end, 'two', 'Two?');
    const three = f.turn(two.end, 'three', 'Three?');
    const four = f.turn(three.end, 'four', 'Four?');
    const early = f.turn(one.end, 'two, edited', 'Two again?');
    const late = f.turn(three.end, 'four, edited', 'Four again?');
    const { layout } = laidOut(f, four.end);
    expect(at(layout, early.user).column).toBe(1);
    expect(at(layout, late.user).column).toBe(1);
    expect(layout.width).toBeLessThan(2 * (at(layout, early.user).x + 10));
  });

  it('keeps a long session’s height to its messages: 2,000 nodes, one row per message', () => {
    const f = new TurnFixture();
    let tip = f.root();
    let turns = 0;
    while (f.nodes.length < 2000) {
      const t = f.turn(tip, `item ${turns}`, `Where does item ${turns} go?`);
      // every tenth message edited once: branches to the side, not more height
      if (turns % 10 === 5) f.turn(tip, `item ${turns}, edited`, 'Again?');
      tip = t.end;
      turns++;
    }
    const started = performance.now();
    const { tree, layout } = laidOut(f, tip);
    expect(performance.now() - started).toBeLessThan(1000);
    const rows = 2 * turns + 1;
    expect(Math.max(...layout.boxes.map((b) => b.row)) + 1).toBe(rows);
    expect(layout.height).toBeLessThanOrEqual(rows * (BOX_HEIGHT + 16) + 24);
    // a box per message, not per node
    expect(layout.boxes).toHaveLength(tree.groups.size);
    expect(layout.boxes.length).toBeLessThan(f.nodes.length / 3);
    // the edits all fit in one column beside the main line
    expect(Math.max(...layout.boxes.map((b) => b.column))).toBe(1);
  });
});
