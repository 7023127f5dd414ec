/**
 * The tree store against its floors, on the local PostgreSQL, in a fresh database of its own that
 * is dropped at the end (even on failure or Ctrl-C).
 *
 *   npm run bench              depths 1k, 10k and 100k; reflog of 100k entries
 *   npm run bench -- --quick   depths 1k and 10k; reflog of 10k entries (well under a minute)
 *
 * Every figure is the p50 of timed repetitions (process.hrtime.bigint) after a warm-up; figures that
 * are compared with each other are sampled interleaved (A B A B ..., the order alternating each
 * round) so drift, checkpoints and autovacuum hit both sides alike. Targets (figure ≤ factor × floor):
 *
 *   1. append: store.append of one node with expectedHead (node + ref + reflog, one transaction)
 *      ≤ 2.0 × a bare one-row autocommit INSERT into a plain floor table with the same columns.
 *   2. path root → HEAD: store.path(conversation, 'HEAD') ≤ 1.5 × the same rows read by one index
 *      range scan of a plain floor table (index on (conversation, depth)), through the same pool,
 *      mapped to the same TreeNode shape. One target per depth.
 *   3. state at HEAD (store.stateAt, a small reducer) at the deepest depth ≤ 2 × at depth 1k.
 *   4. rewind (store.move 'rewind' to HEAD~1) + recover (store.recover) round at the deepest depth
 *      ≤ 1.2 × at depth 1k.
 *   5. a reflog page of 50 with 100k entries (10k in --quick) ≤ 1.2 × with 100 entries.
 *   6. bytes per node (nodes + segments) ≤ 2.0 × the floor table's bytes per row, same messages.
 *
 * Prints `figure | value | floor | ratio | target | met` per target and, last, exactly
 * `bench: N of M targets met`. Exits 0 when it measured everything (met or not), non-zero on errors.
 * Progress and diagnostics (query plans) go to stderr.
 */
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { PgSqlClient, SNAPSHOT_INTERVAL, TreeStore } from '../src';
import { PATH_FROM_ROOT } from '../src/sql';
import { buildDeep, buildReflog, must, type Deep } from './conversations';
import { APP_ROLE, FLOOR_PATH_SQL, FLOOR_SCHEMA, floorPath } from './floor';
import { chatState, message, mulberry32, OWNER } from './messages';
import { k, plan, table, type Figure } from './report';
import { elapsedMs, interleaved, note, p50 } from './timing';

interface Config {
  quick: boolean;
  depths: number[];
  /** nodes per store.append while building the deep conversations, as an agent appends a turn's output */
  batch: number;
  reflogSmall: number;
  reflogBig: number;
}

function configFrom(argv: string[]): Config {
  const unknown = argv.filter((a) => a !== '--quick');
  if (unknown.length > 0) throw new Error(`unknown arguments: ${unknown.join(' ')} (only --quick)`);
  const quick = argv.includes('--quick');
  return {
    quick,
    depths: quick ? [1_000, 10_000] : [1_000, 10_000, 100_000],
    batch: 1_000,
    reflogSmall: 100,
    reflogBig: quick ? 10_000 : 100_000,
  };
}

async function main(argv: string[]): Promise<number> {
  const config = configFrom(argv);
  const started = process.hrtime.bigint();
  process.stderr.write(
    `bench: tree store vs floor${config.quick ? ' (--quick)' : ''}, depths ${config.depths.map(k).join(', ')}\n`,
  );

  let db: TestDatabase | undefined;
  let client: PgSqlClient | undefined;
  let admin: Client | undefined;
  let cleaned: Promise<void> | undefined;
  const cleanup = () =>
    (cleaned ??= (async () => {
      await admin?.end().catch(() => undefined);
      await client?.close().catch(() => undefined);
      if (db) {
        await db.drop();
        note(`dropped ${db.name}`);
      }
    })());
  const onSignal = (signal: NodeJS.Signals) => {
    process.stderr.write(`bench: ${signal}, dropping the database\n`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  try {
    db = await createTestDatabase(`bench_${randomBytes(2).toString('hex')}`);
    note(`database ${db.name}`);
    admin = new Client({ connectionString: db.url });
    await admin.connect();
    for (const sql of FLOOR_SCHEMA) await admin.query(sql);
    // The store works as the api does: the app role, through a pg pool. The floor reads and inserts
    // go through this same pool.
    client = PgSqlClient.connect(db.url, { max: 4, role: APP_ROLE });
    const store = new TreeStore(client);
    const figures: Figure[] = [];

    // Deep conversations, deepest first so that the byte count below covers only the deepest.
    const depths = [...config.depths].sort((a, b) => b - a);
    const deep = new Map<number, Deep>();
    const deepest = depths[0] as number;
    deep.set(deepest, await buildDeep(store, admin, deepest, config.batch));

    // 6. bytes per node -------------------------------------------------------------------------
    // Counted for the store: pg_total_relation_size (heap + TOAST + every index + fsm/vm) of
    // `nodes` and `segments` (what exists because nodes exist) over the number of nodes. At this
    // point those tables hold only the deepest conversation, root included, and floor_nodes holds
    // exactly the same messages. Not counted: refs and conversations (one row per conversation),
    // the reflog (one row per HEAD move, not per node: here one per batch) and state_snapshots
    // (derived data, safe to drop; its size per node is reported on stderr).
    // The floor: pg_total_relation_size(floor_nodes) over its rows.
    {
      await admin.query(`VACUUM ANALYZE nodes, segments, state_snapshots, floor_nodes`);
      const [sizes] = (
        await admin.query<{
          nodes: string;
          segments: string;
          node_count: string;
          floor: string;
          floor_count: string;
          snapshots: string;
          snapshot_count: string;
        }>(
          `SELECT pg_total_relation_size('nodes') AS nodes, pg_total_relation_size('segments') AS segments,
                  (SELECT count(*) FROM nodes) AS node_count,
                  pg_total_relation_size('floor_nodes') AS floor, (SELECT count(*) FROM floor_nodes) AS floor_count,
                  pg_total_relation_size('state_snapshots') AS snapshots, (SELECT count(*) FROM state_snapshots) AS snapshot_count`,
        )
      ).rows;
      if (!sizes) throw new Error('no sizes');
      if (sizes.node_count !== sizes.floor_count)
        throw new Error(`${sizes.node_count} nodes but ${sizes.floor_count} floor rows`);
      const perNode = (Number(sizes.nodes) + Number(sizes.segments)) / Number(sizes.node_count);
      const perRow = Number(sizes.floor) / Number(sizes.floor_count);
      figures.push({
        figure: `bytes per node @${k(deepest)} (nodes+segments)`,
        value: perNode,
        floor: perRow,
        factor: 2.0,
        unit: 'B',
      });
      note(
        `bytes: nodes ${sizes.nodes} + segments ${sizes.segments} for ${sizes.node_count} nodes; floor ${sizes.floor} for ` +
          `${sizes.floor_count} rows; state_snapshots ${sizes.snapshots} for ${sizes.snapshot_count} snapshots ` +
          `(${(Number(sizes.snapshots) / Number(sizes.node_count)).toFixed(1)} B per node more, not counted)`,
      );
    }

    // 1. append ------------------------------------------------------------------------------
    {
      const { conversation, root } = await store.createConversation({
        ownerId: OWNER,
        agent: 'tidying',
        title: 'append',
      });
      const rand = mulberry32(7);
      let head = root.id;
      let depth = 0;
      let floorParent: string | null = null;
      let floorDepth = 0;
      const appendOne = async () => {
        depth += 1;
        const appended = must(
          await store.append({
            conversationId: conversation.id,
            nodes: [message(rand, depth)],
            expectedHead: head,
            actorId: OWNER,
          }),
          'append',
        );
        head = appended.head;
      };
      // The floor: the same message columns, one bare INSERT, autocommit, through the same pool.
      const floorInsert = async () => {
        floorDepth += 1;
        const id = randomBytes(32).toString('hex');
        const m = message(rand, floorDepth);
        await client!.query(
          `INSERT INTO floor_append (conversation_id, id, parent_id, depth, created_at, kind, author_id, payload)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            conversation.id,
            id,
            floorParent,
            floorDepth,
            new Date().toISOString(),
            m.kind,
            m.authorId,
            JSON.stringify(m.payload),
          ],
        );
        floorParent = id;
      };
      const [value, floor] = await interleaved(30, config.quick ? 150 : 300, [appendOne, floorInsert]);
      figures.push({
        figure: 'append 1 node (node+ref+reflog), p50',
        value: value!,
        floor: floor!,
        factor: 2.0,
        unit: 'ms',
      });
      note(`append: store ${value!.toFixed(3)} ms, floor INSERT ${floor!.toFixed(3)} ms`);
    }

    for (const depth of depths.slice(1)) deep.set(depth, await buildDeep(store, admin, depth, config.batch));
    await admin.query(
      `VACUUM ANALYZE nodes, segments, state_snapshots, floor_nodes, refs, reflog, conversations`,
    );

    // 2. path root → HEAD, per depth --------------------------------------------------------------
    const pathFigures: Figure[] = [];
    for (const depth of [...config.depths].sort((a, b) => a - b)) {
      const c = deep.get(depth) as Deep;
      const storePath = async () => {
        const path = must(await store.path(c.conversationId, 'HEAD'), 'path');
        if (path.length !== depth + 1) throw new Error(`path of ${path.length} nodes at depth ${depth}`);
      };
      const floorRead = async () => {
        const path = await floorPath(client!, c.conversationId, depth);
        if (path.length !== depth + 1) throw new Error(`floor path of ${path.length} rows at depth ${depth}`);
      };
      // Same rows on both sides (ids, order, content).
      const a = must(await store.path(c.conversationId, 'HEAD'), 'path');
      const b = await floorPath(client, c.conversationId, depth);
      if (JSON.stringify(a) !== JSON.stringify(b))
        throw new Error(`store and floor paths differ at depth ${depth}`);
      const reps = depth >= 100_000 ? 9 : depth >= 10_000 ? 25 : 101;
      const [value, floor] = await interleaved(depth >= 100_000 ? 2 : 5, reps, [storePath, floorRead]);
      pathFigures.push({
        figure: `path root->HEAD @${k(depth)}`,
        value: value!,
        floor: floor!,
        factor: 1.5,
        unit: 'ms',
      });
      note(`path @${k(depth)}: store ${value!.toFixed(3)} ms, floor ${floor!.toFixed(3)} ms`);
      const head = await store.head(c.conversationId);
      note(
        `plans @${k(depth)}: store pathRows\n` +
          (await plan(admin, PATH_FROM_ROOT, [head!.segmentId, head!.depth, -1])) +
          `\n    floor\n` +
          (await plan(admin, FLOOR_PATH_SQL, [c.conversationId, depth])),
      );
    }
    figures.push(...pathFigures);

    // 3. state at HEAD: deepest vs 1k -----------------------------------------------------------
    const shallow = deep.get(1_000) as Deep;
    const deepC = deep.get(deepest) as Deep;
    {
      const stateAt = (c: Deep) => async () => {
        const s = must(await store.stateAt(c.conversationId, 'HEAD', chatState), 'stateAt').state;
        if (s.user + s.assistant !== c.depth) throw new Error('stateAt counted wrong');
      };
      const [at1k, atDeep] = await interleaved(10, 101, [stateAt(shallow), stateAt(deepC)]);
      figures.push({
        figure: `stateAt HEAD @${k(deepest)} vs @1k`,
        value: atDeep!,
        floor: at1k!,
        factor: 2.0,
        unit: 'ms',
      });
      note(
        `stateAt: @1k ${at1k!.toFixed(3)} ms (folds ${shallow.depth % SNAPSHOT_INTERVAL} nodes after a snapshot), ` +
          `@${k(deepest)} ${atDeep!.toFixed(3)} ms (folds ${deepest % SNAPSHOT_INTERVAL})`,
      );
    }

    // 4. rewind + recover: deepest vs 1k ---------------------------------------------------------
    {
      const parts = new Map<number, { rewind: number[]; recover: number[] }>();
      const round = (c: Deep) => async () => {
        const t0 = process.hrtime.bigint();
        const back = must(
          await store.move({
            conversationId: c.conversationId,
            to: 'HEAD~1',
            action: 'rewind',
            expectedHead: c.head,
            actorId: OWNER,
          }),
          'rewind',
        );
        const t1 = process.hrtime.bigint();
        const again = must(
          await store.recover({
            conversationId: c.conversationId,
            reflogId: c.headReflogId,
            expectedHead: back.head,
            actorId: OWNER,
          }),
          'recover',
        );
        const t2 = process.hrtime.bigint();
        if (again.head !== c.head) throw new Error('recover did not return to HEAD');
        c.headReflogId = again.reflog.id;
        const p = parts.get(c.depth) ?? { rewind: [], recover: [] };
        p.rewind.push(Number(t1 - t0) / 1e6);
        p.recover.push(Number(t2 - t1) / 1e6);
        parts.set(c.depth, p);
      };
      const [at1k, atDeep] = await interleaved(10, 101, [round(shallow), round(deepC)]);
      figures.push({
        figure: `rewind+recover @${k(deepest)} vs @1k`,
        value: atDeep!,
        floor: at1k!,
        factor: 1.2,
        unit: 'ms',
      });
      for (const [depth, p] of parts) {
        note(
          `rewind+recover @${k(depth)}: rewind ${p50(p.rewind).toFixed(3)} ms, recover ${p50(p.recover).toFixed(3)} ms (p50 incl. warm-up)`,
        );
      }
    }

    // 5. a reflog page of 50: many entries vs 100 -------------------------------------------------
    {
      const small = await buildReflog(store, client, config.reflogSmall);
      const big = await buildReflog(store, client, config.reflogBig);
      // The build crams a long history into seconds; give the tables the vacuum/analyze that
      // autovacuum would have given them over that time.
      await admin.query(`VACUUM ANALYZE reflog, refs, conversations`);
      const page = (id: string) => async () => {
        const p = must(await store.reflog(id, { limit: 50 }), 'reflog');
        if (p.entries.length !== 50 || p.next === null)
          throw new Error('reflog page is not 50 entries with more');
      };
      const [atSmall, atBig] = await interleaved(20, 201, [page(small), page(big)]);
      figures.push({
        figure: `reflog page of 50 @${k(config.reflogBig)} vs @100 entries`,
        value: atBig!,
        floor: atSmall!,
        factor: 1.2,
        unit: 'ms',
      });
      note(`reflog page: @100 ${atSmall!.toFixed(3)} ms, @${k(config.reflogBig)} ${atBig!.toFixed(3)} ms`);
    }

    // Report, in target order.
    const order = ['append', 'path', 'stateAt', 'rewind', 'reflog', 'bytes'];
    figures.sort(
      (x, y) =>
        order.findIndex((o) => x.figure.startsWith(o)) - order.findIndex((o) => y.figure.startsWith(o)),
    );
    note(`measured in ${(elapsedMs(started) / 1000).toFixed(1)} s`);
    const met = figures.filter((f) => f.value / f.floor <= f.factor).length;
    process.stdout.write(`\n${table(figures).join('\n')}\nbench: ${met} of ${figures.length} targets met\n`);
    return 0;
  } finally {
    await cleanup();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
