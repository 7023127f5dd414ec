import * as fc from 'fast-check';
import type {
  Conversation,
  ElicitRequest,
  HeadMove,
  NodeAndHead,
  ReflogEntry,
  ReflogPage,
  StateResponse,
  TidyingState,
  TreeNode,
  TreePage,
} from '@sweatpants/domain';
import { createTestDatabase, type TestDatabase } from '@sweatpants/migrations/testing';
import { ConversationActors } from '../src/conversations/conversation-actors';
import { conversation, createConversation, OPENING, path, PHOTO } from './support/flows';
import { call, register, startApi, type TestApi } from './support/test-api';
import { connect, request, type ClientSocket } from './support/test-socket';

/**
 * Whatever a user does to a tidying session through the public api — taps any choice, types
 * off-script while a question waits, chats (through the socket as the web client does, the chat
 * prompt answered by its id), skips, edits, rewinds, recovers, cancels, walks away past the idle
 * time, switches branches with the arrows, carries on after the recap — the session keeps five
 * invariants, read back through the public api only (path, state, reflog):
 *
 * 1. every decided item is in exactly one pile, counted once, and an item that goes out says where;
 * 2. nothing the user wrote leaves HEAD's path except by the user's own move (or a summary);
 * 3. the agent only appends: its reflog entries are `append` (or the compactor's `compact`), each
 *    from an ancestor of where it leaves HEAD;
 * 4. an item decided on the path is never proposed again further down that path (in one session:
 *    after the recap more words carry it on, and only a new session forgets what was decided);
 * 5. a question pending at a HEAD is pending again, under the same id, whenever HEAD comes back
 *    there (leaving a branch is not a Stop, and walking away loses nothing).
 *
 * The agent is the tidying coach on the offline model (no ANTHROPIC_API_KEY): deterministic rules
 * that walk the real flows. One app for the file; each run is a fresh conversation.
 */

/** Words typed while a question waits: some answer it, some are a side quest (seed 004). */
const OFF_SCRIPT = [
  'bin it',
  'not sure',
  'put it in the kitchen',
  'yes',
  'writing letters',
  'wait, where do cables go?',
  "what's the weather like?",
] as const;
/** Messages for the chat prompt (after "I'm done", the next ones carry the session on). */
const CHAT = [
  'a coffee mug',
  'the old letters',
  'not sure about the cable',
  'go on',
  "I'm done",
  'the stapler',
] as const;
/** New texts for an edited message. */
const EDITS = ['a coffee mug', 'the old letters', 'a stack of papers', "I'm done", 'go on'] as const;
/** What a disposition counts as when it decides an item (skip and need-more-info do not). */
const DECIDING = new Set(['trash', 'donate', 'recycle', 'place']);

/** How long the offline agent may take to stop on its next question (it takes milliseconds). */
const SETTLE_MS = 15_000;
const NUM_RUNS = 20;
const SEED = Number(process.env['SESSION_INVARIANTS_SEED'] ?? 20261123);

type Op =
  | { kind: 'tap'; pick: number; flag: boolean }
  | { kind: 'offScript'; pick: number }
  | { kind: 'chat'; pick: number }
  | { kind: 'skip'; pick: number }
  | { kind: 'edit'; pick: number; text: number }
  | { kind: 'rewind'; pick: number }
  | { kind: 'recover'; pick: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'walkAway'; pick: number }
  | { kind: 'switchBranch'; pick: number };

const pick = fc.nat({ max: 1000 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('tap' as const), pick, flag: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('offScript' as const), pick }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('chat' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('skip' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit' as const), pick, text: pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rewind' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('recover' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('walkAway' as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('switchBranch' as const), pick }) },
);

const at = <T>(items: readonly T[], n: number): T => items[n % items.length] as T;
const short = (id: string | null | undefined) => (id ? id.slice(0, 8) : String(id));

let db: TestDatabase;
let api: TestApi;
let token: string;
let userId: string;
let socket: ClientSocket;

beforeAll(async () => {
  db = await createTestDatabase('api_session_invariants');
  // every step polls until the agent settles: far more requests a minute than a person makes
  api = await startApi({ DATABASE_URL: db.url, RATE_LIMIT_HTTP_PER_MINUTE: '1000000' });
  const auth = await register(api, 'invariants');
  token = auth.token;
  userId = auth.user.id;
  socket = await connect(api, token);
}, 30_000);
afterAll(async () => {
  socket?.close();
  await api?.close();
  await db?.drop();
});

/** One line per node, for a failure's report. */
function describeNode(n: TreeNode, index: number): string {
  const p = n.payload as Record<string, unknown>;
  const who = n.authorId.startsWith('agent:') ? n.authorId : 'user';
  let what = '';
  switch (n.kind) {
    case 'user':
      what = `${JSON.stringify(p['text'])}${p['synthetic'] ? ' (synthetic)' : ''}`;
      break;
    case 'elicit': {
      const inner = p['payload'] as Record<string, unknown> | undefined;
      what = `${String(p['type'])} ${short(p['elicitId'] as string)}${inner?.['item'] ? ` item=${String(inner['item'])}` : ''}${p['resumes'] ? ` resumes=${short(p['resumes'] as string)}` : ''}`;
      break;
    }
    case 'response':
      what = `${short(p['elicitId'] as string)} ${String(p['action'])} ${JSON.stringify(p['content'] ?? null)}`;
      break;
    case 'event':
      what = `${String(p['type'])}${p['item'] ? ` item=${String(p['item'])}` : ''}`;
      break;
    case 'assistant':
    case 'notify':
      what = JSON.stringify(String(p['text'] ?? p['message'] ?? '').slice(0, 80));
      break;
    case 'tool_call':
    case 'tool_result':
      what = String(p['name']);
      break;
    default:
      what = JSON.stringify(p).slice(0, 80);
  }
  return `  #${index} ${short(n.id)} ${n.kind} [${who}] ${what}`;
}

/** The user's model of one session: what they did, and what of theirs must stay on the path. */
class Session {
  /** the conversation as last settled */
  current!: Conversation;
  /** the user-authored nodes written since the user last moved HEAD themselves */
  readonly tracked = new Map<string, TreeNode>();
  /** reflog entries already checked (entries never change) */
  readonly checkedReflog = new Set<string>();
  readonly trace: string[] = [];
  lastPath: TreeNode[] = [];
  /** HEAD → the question that was pending there (invariant 5) */
  readonly askedAt = new Map<string, string>();

  constructor(readonly id: string) {}

  fail(invariant: string, detail: string): never {
    throw new Error(
      [
        `invariant ${invariant} violated: ${detail}`,
        `actions applied (conversation ${this.id}):`,
        ...this.trace.map((t, i) => `  ${i + 1}. ${t}`),
        `path at HEAD (${this.lastPath.length} nodes):`,
        ...this.lastPath.map(describeNode),
      ].join('\n'),
    );
  }

  async request<T>(method: string, url: string, body?: unknown, ok = [200, 201]): Promise<T> {
    const res = await call<T>(api, method, `/api/conversations/${this.id}${url}`, {
      token,
      ...(body !== undefined ? { body } : {}),
    });
    if (!ok.includes(res.status)) {
      this.fail(
        '(api)',
        `${method} ${url} ${JSON.stringify(body ?? null)} answered ${res.status} ${JSON.stringify(res.body)}`,
      );
    }
    return res.body;
  }

  /**
   * Waits until the agent stops on a question (status `waiting` with a pending elicit) that is not
   * `before`, the one just answered.
   */
  async settle(before: string | null): Promise<Conversation> {
    const deadline = Date.now() + SETTLE_MS;
    for (;;) {
      const c = await conversation(api, token, this.id);
      if (c.status === 'waiting' && c.pendingElicit && c.pendingElicit.elicitId !== before) {
        this.current = c;
        this.checkAskedAgain(c);
        return c;
      }
      if (Date.now() > deadline) {
        this.lastPath = await path(api, token, this.id);
        this.fail(
          '(settles)',
          `the agent did not stop on a new question within ${SETTLE_MS} ms: status ${c.status}, pending ${JSON.stringify(c.pendingElicit)}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Invariant 5: a question once pending at this HEAD is the one pending now. */
  checkAskedAgain(c: Conversation): void {
    const question = c.pendingElicit;
    if (!question || question.type === 'chat') return;
    const before = this.askedAt.get(c.head);
    if (before !== undefined && before !== question.elicitId) {
      this.fail(
        '5 (pending again on coming back)',
        `at HEAD ${short(c.head)} the question ${short(before)} was pending; coming back, ${short(question.elicitId)} (${question.type}) is`,
      );
    }
    this.askedAt.set(c.head, question.elicitId);
  }

  /** A user move of HEAD: what was written before it may leave the path. */
  userMoved(): void {
    this.tracked.clear();
  }

  wrote(node: TreeNode): void {
    this.tracked.set(node.id, node);
  }
}

/** A tap on one of the pending question's choices (never the chat prompt). */
function tapAnswer(q: ElicitRequest, n: number, flag: boolean): { body: unknown; said: string } {
  switch (q.type) {
    case 'choose': {
      const payload = q.payload as {
        options: { id: string; label: string }[];
        reveals?: Record<string, { type: string }>;
      };
      const option = at(payload.options, n);
      const reveals = payload.reveals?.[option.id]?.type === 'free-text' && flag;
      return {
        body: {
          action: 'accept',
          content: { choiceId: option.id, ...(reveals ? { revealed: { text: 'writing letters' } } : {}) },
        },
        said: `choose ${option.id} (${option.label})${reveals ? ' revealing "writing letters"' : ''}`,
      };
    }
    case 'propose-disposition': {
      const payload = q.payload as { item: string; choices: { id: string; disposition: unknown }[] };
      const index = n % payload.choices.length;
      const choice = payload.choices[index]!;
      return {
        body: { action: 'accept', content: { disposition: choice.disposition, wasCorrection: index > 0 } },
        said: `propose-disposition(${payload.item}) → ${choice.id} ${JSON.stringify(choice.disposition)}`,
      };
    }
    case 'confirm':
      return {
        body: { action: 'accept', content: { value: flag } },
        said: `confirm ${flag}`,
      };
    case 'group':
      return {
        body: { action: 'accept', content: { answers: { done: { value: flag } } } },
        said: `group done=${flag}`,
      };
    case 'free-text':
      return { body: { action: 'accept', content: { text: 'writing letters' } }, said: 'free-text' };
    default:
      return { body: { action: 'decline' }, said: `decline ${q.type}` };
  }
}

const isUserMessage = (n: TreeNode) =>
  n.kind === 'user' && n.authorId === userId && !(n.payload as { synthetic?: boolean }).synthetic;

/** Applies one action through the public api and waits for the agent to settle again. */
async function apply(s: Session, op: Op): Promise<void> {
  const q = s.current.pendingElicit!;
  const chat = q.type === 'chat';
  const nodes = s.lastPath;

  const message = async (text: string, label: string) => {
    const res = await s.request<NodeAndHead>('POST', '/messages', { text });
    s.wrote(res.node);
    s.trace.push(`${label} ${JSON.stringify(text)} while ${q.type} pending → ${res.node.kind}`);
    await s.settle(q.elicitId);
  };
  // The web client's composer: the chat prompt answered by its elicit id, over the socket.
  const typed = async (text: string) => {
    const ack = await request(socket, 'elicit:response', {
      conversationId: s.id,
      elicitId: q.elicitId,
      action: 'accept',
      content: { text },
    });
    if (!ack.ok)
      s.fail(
        '(socket)',
        `the chat prompt ${short(q.elicitId)} refused ${JSON.stringify(text)}: ${ack.error.message}`,
      );
    s.wrote(ack.node);
    s.trace.push(`typed ${JSON.stringify(text)} at the chat prompt (socket)`);
    await s.settle(q.elicitId);
  };
  const tap = async (n: number, flag: boolean) => {
    const { body, said } = tapAnswer(q, n, flag);
    const res = await s.request<NodeAndHead>(
      'POST',
      `/elicits/${encodeURIComponent(q.elicitId)}/response`,
      body,
    );
    s.wrote(res.node);
    s.trace.push(`tap ${said}`);
    await s.settle(q.elicitId);
  };
  const talk = (n: number) => (chat ? message(at(CHAT, n), 'chat') : tap(n, n % 2 === 0));

  switch (op.kind) {
    case 'tap':
      return chat ? message(at(CHAT, op.pick), 'chat') : tap(op.pick, op.flag);
    case 'offScript':
      return chat ? message(at(CHAT, op.pick), 'chat') : message(at(OFF_SCRIPT, op.pick), 'off-script');
    case 'chat':
      return chat ? typed(at(CHAT, op.pick)) : talk(op.pick);
    case 'walkAway': {
      // what RUNNER_IDLE_MS does to a conversation nobody touches: its runner goes
      await api.app.get(ConversationActors).close(s.id);
      s.trace.push(`walk away while ${q.type} pending (the runner closes)`);
      // then they come back and carry on where they were, as they would
      return chat ? typed(at(CHAT, op.pick)) : tap(op.pick, op.pick % 2 === 0);
    }
    case 'switchBranch': {
      const to = await otherBranchTip(s, nodes, op.pick);
      if (!to) return talk(op.pick);
      await s.request<HeadMove>('POST', '/rewind', { to: to.tip });
      s.userMoved();
      s.trace.push(`switch branch at #${to.at} to the tip ${short(to.tip)} while ${q.type} pending`);
      return void (await s.settle(null));
    }
    case 'skip': {
      if (chat) return message(at(CHAT, op.pick), 'chat');
      const res = await s.request<NodeAndHead>(
        'POST',
        `/elicits/${encodeURIComponent(q.elicitId)}/response`,
        { action: 'decline' },
      );
      s.wrote(res.node);
      s.trace.push(`skip (decline) ${q.type}`);
      return void (await s.settle(q.elicitId));
    }
    case 'edit': {
      const users = nodes.filter(isUserMessage);
      if (users.length === 0) return talk(op.pick);
      const target = at(users, op.pick);
      const text = at(EDITS, op.text);
      const res = await s.request<NodeAndHead>('POST', `/nodes/${target.id}/edit`, { text });
      s.userMoved();
      s.wrote(res.node);
      s.trace.push(
        `edit #${nodes.indexOf(target)} ${JSON.stringify((target.payload as { text: string }).text)} → ${JSON.stringify(text)}`,
      );
      return void (await s.settle(null));
    }
    case 'rewind': {
      if (nodes.length < 2) return talk(op.pick);
      const index = op.pick % (nodes.length - 1);
      const target = nodes[index]!;
      await s.request<HeadMove>('POST', '/rewind', { to: target.id });
      s.userMoved();
      s.trace.push(`rewind to #${index} ${target.kind} ${short(target.id)}`);
      return void (await s.settle(null));
    }
    case 'recover': {
      const entries = await reflog(s);
      const entry = at(entries, op.pick);
      await s.request<HeadMove>('POST', '/recover', { reflogId: entry.id });
      s.userMoved();
      s.trace.push(
        `recover reflog HEAD@{${entry.index}} (${entry.action} → ${short(entry.newHead)}) while ${q.type} pending`,
      );
      return void (await s.settle(null));
    }
    case 'cancel': {
      await s.request<{ head: string }>('POST', '/cancel');
      s.userMoved();
      s.trace.push(`cancel while ${q.type} pending`);
      return void (await s.settle(null));
    }
  }
}

/**
 * Where the branch arrows go from a fork on HEAD's path: a sibling of a path node, at that
 * sibling's newest, deepest descendant (apps/web's latestTip). Null when the path has no fork.
 */
async function otherBranchTip(
  s: Session,
  nodes: readonly TreeNode[],
  n: number,
): Promise<{ at: number; tip: string } | null> {
  const page = await s.request<TreePage>('GET', '/tree?limit=500');
  const byId = new Map(page.nodes.map((node) => [node.id, node]));
  const forks = nodes.flatMap((node, index) => {
    const parent = node.parentId ? byId.get(node.parentId) : undefined;
    const others = (parent?.childIds ?? []).filter((id) => id !== node.id);
    return others.map((sibling) => ({ at: index, sibling }));
  });
  if (forks.length === 0) return null;
  const { at: index, sibling } = at(forks, n);
  let tip = byId.get(sibling)!;
  const stack = [...tip.childIds];
  while (stack.length > 0) {
    const node = byId.get(stack.pop()!);
    if (!node) continue;
    if (node.depth > tip.depth || (node.depth === tip.depth && node.createdAt > tip.createdAt)) tip = node;
    stack.push(...node.childIds);
  }
  return { at: index, tip: tip.id };
}

/** The whole reflog, newest first. */
async function reflog(s: Session): Promise<ReflogEntry[]> {
  const entries: ReflogEntry[] = [];
  let before: string | null = null;
  do {
    const query: string = before ? `&before=${encodeURIComponent(before)}` : '';
    const page: ReflogPage = await s.request<ReflogPage>('GET', `/reflog?limit=200${query}`);
    entries.push(...page.entries);
    before = page.next;
  } while (before);
  return entries;
}

/** Invariant 1: the piles at HEAD. */
async function checkPiles(s: Session): Promise<void> {
  const { state } = await s.request<StateResponse<TidyingState>>('GET', '/state');
  const { belongs, out, unsure } = state.piles;
  const all = { belongs, out, unsure };
  for (const [name, pile] of Object.entries(all)) {
    if (new Set(pile).size !== pile.length)
      s.fail('1 (piles)', `the ${name} pile repeats an item: ${JSON.stringify(pile)}`);
  }
  const seen = new Map<string, string>();
  for (const [name, pile] of Object.entries(all)) {
    for (const item of pile) {
      const other = seen.get(item);
      if (other)
        s.fail(
          '1 (piles)',
          `${JSON.stringify(item)} is in both ${other} and ${name}: ${JSON.stringify(all)}`,
        );
      seen.set(item, name);
    }
  }
  if (state.itemsProcessed !== belongs.length + out.length) {
    s.fail(
      '1 (piles)',
      `itemsProcessed is ${state.itemsProcessed} but |belongs| + |out| is ${belongs.length + out.length}: ${JSON.stringify(all)}`,
    );
  }
  const destinations = state.destinations ?? {};
  for (const item of out) {
    if (typeof destinations[item] !== 'string') {
      s.fail(
        '1 (piles)',
        `${JSON.stringify(item)} is out but has no destination: ${JSON.stringify(destinations)}`,
      );
    }
  }
}

/** Invariant 2: every node the user wrote since their last move of HEAD is still on the path. */
async function checkUserWordsKept(s: Session, nodes: TreeNode[]): Promise<void> {
  const onPath = new Set(nodes.map((n) => n.id));
  const summaries = nodes.filter((n) => n.kind === 'summary');
  for (const [id, node] of s.tracked) {
    if (onPath.has(id)) continue;
    let covered = false;
    for (const summary of summaries) {
      const covers = (summary.payload as { covers?: { fromId: string; toId: string } }).covers;
      if (!covers) continue;
      // squashed into the summary: on the old chain between fromId and toId
      const chain = await path(api, token, s.id, covers.toId);
      const from = chain.findIndex((n) => n.id === covers.fromId);
      if (from >= 0 && chain.slice(from).some((n) => n.id === id)) covered = true;
      // or re-appended after it as the rebased tail: the same content under a new id
      const after = nodes.slice(nodes.indexOf(summary) + 1);
      const same = (n: TreeNode) =>
        n.kind === node.kind &&
        n.authorId === node.authorId &&
        JSON.stringify(n.payload) === JSON.stringify(node.payload);
      if (after.some(same)) covered = true;
      if (covered) break;
    }
    if (!covered) {
      s.fail(
        '2 (user words stay)',
        `the user's ${node.kind} ${short(id)} ${JSON.stringify(node.payload)} left HEAD's path though the user did not move HEAD since writing it`,
      );
    }
  }
}

/** Invariant 3: the agent's moves of HEAD are appends (or a compaction), each forward from where HEAD was. */
async function checkAgentOnlyAppends(s: Session): Promise<void> {
  for (const entry of await reflog(s)) {
    if (s.checkedReflog.has(entry.id)) continue;
    s.checkedReflog.add(entry.id);
    if (!entry.actorId.startsWith('agent:')) continue;
    const what = `HEAD@{${entry.index}} ${entry.action} by ${entry.actorId} ${short(entry.oldHead)} → ${short(entry.newHead)}`;
    if (entry.action === 'compact' && entry.actorId === 'agent:compactor') continue;
    if (entry.action !== 'append') s.fail('3 (agent only appends)', `${what}: not an append`);
    if (entry.oldHead === null) s.fail('3 (agent only appends)', `${what}: appended from nowhere`);
    const ancestry = await path(api, token, s.id, entry.newHead);
    if (!ancestry.some((n) => n.id === entry.oldHead)) {
      s.fail('3 (agent only appends)', `${what}: the old HEAD is not an ancestor of the new one`);
    }
  }
}

/**
 * Invariant 4: along the path, an item decided is never proposed again in the same session. After
 * the recap more words carry the session on; only a new one (asked for: `restart`) starts with
 * empty piles, where a mug is a new mug.
 */
function checkNoReproposal(s: Session, nodes: TreeNode[]): void {
  const elicits = new Map<string, { index: number; node: TreeNode }>();
  const decided = new Map<string, { index: number; how: string }>();
  nodes.forEach((n, index) => {
    const p = n.payload as Record<string, unknown>;
    const extract = p['extract'] as { intent?: string } | undefined;
    if (n.kind === 'event' && p['type'] === 'action-taken' && extract?.intent === 'restart') {
      decided.clear();
      return;
    }
    if (n.kind === 'elicit') {
      elicits.set(p['elicitId'] as string, { index, node: n });
      if (p['type'] !== 'propose-disposition') return;
      const item = (p['payload'] as { item: string }).item;
      const before = decided.get(item);
      if (before) {
        s.fail(
          '4 (no re-proposal)',
          `${JSON.stringify(item)} was decided at #${before.index} (${before.how}) and proposed again at #${index}`,
        );
      }
      return;
    }
    if (n.kind !== 'response') return;
    const asked = elicits.get(p['elicitId'] as string);
    const question = asked?.node.payload as Record<string, unknown> | undefined;
    if (question?.['type'] !== 'propose-disposition') return;
    const item = (question['payload'] as { item: string }).item;
    let kind: string | undefined;
    if (p['action'] === 'accept') {
      kind = (p['content'] as { disposition?: { kind?: string } }).disposition?.kind;
    } else if (p['action'] === 'other') {
      // words the agent took as the answer: it records the decision right after reading them
      for (const later of nodes.slice(index + 1)) {
        const lp = later.payload as Record<string, unknown>;
        if (later.kind === 'elicit' || later.kind === 'user') break;
        if (later.kind === 'event' && lp['type'] === 'user-input-received') break;
        if (later.kind === 'event' && lp['type'] === 'user-confirmed' && lp['item'] === item) {
          kind = (lp['disposition'] as { kind?: string }).kind;
          break;
        }
      }
    }
    if (kind && DECIDING.has(kind)) decided.set(item, { index, how: `${String(p['action'])} ${kind}` });
  });
}

async function checkAll(s: Session): Promise<void> {
  const nodes = await path(api, token, s.id);
  s.lastPath = nodes;
  if (nodes.at(-1)?.id !== s.current.head) {
    // HEAD moved between the two reads; read the settled conversation again
    s.current = await s.settle(null);
    s.lastPath = await path(api, token, s.id);
  }
  await checkPiles(s);
  await checkUserWordsKept(s, s.lastPath);
  await checkAgentOnlyAppends(s);
  checkNoReproposal(s, s.lastPath);
}

it('any sequence of user actions keeps the piles, the user’s words, forward-only agent moves and decided items', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(opArb, { minLength: 4, maxLength: 10 }), async (ops) => {
      const created = await createConversation(api, token);
      const s = new Session(created.id);
      const opened = await s.request<NodeAndHead>('POST', '/messages', { text: OPENING, photos: [PHOTO] });
      s.wrote(opened.node);
      s.trace.push(`open ${JSON.stringify(OPENING)} with a photo`);
      const first = await s.settle(null);
      if (first.pendingElicit?.type === 'chat')
        s.fail('(opening)', 'the opening message got no question pending');
      await checkAll(s);
      for (const op of ops) {
        await apply(s, op);
        await checkAll(s);
      }
    }),
    // a failure found keeps its counterexample even if shrinking is cut short
    { numRuns: NUM_RUNS, seed: SEED, interruptAfterTimeLimit: 150_000 },
  );
}, 180_000);
