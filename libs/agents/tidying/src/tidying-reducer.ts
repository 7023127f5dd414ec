import { summaryStateKey, toJson, type Json, type StateReducer, type TreeNode } from '@sweatpants/domain';
import { parsePhotoAnalysis } from './observation';
import { placementOf } from './pile-placement';
import {
  endedFrom,
  initialSession,
  spaceOf,
  withSeen,
  type PhaseData,
  type SessionState,
} from './session-state';
import { fromWire, toWire } from './session-wire';
import { sortItem } from './sort-item';
import { parseDecisionEvent, parseDisposition, tidyingEventOf } from './tidying-events';
import { applyDecision } from './transition';
import { mkItemName, mkSpaceFunction, type SpaceFunction } from './tidying-types';

/**
 * The tidying session as a fold of the path (DESIGN.md, event-sourced state): decisions move the
 * phase and the piles, the user's answers to propose_disposition sort items (through the same
 * `sortItem` as decisions), a photo says which room is being tidied, a chosen function fills in
 * what the space is for, and the end of the session ends its phase. Every other node leaves the
 * state as it is, so rewinding the path restores piles and phase exactly.
 */
export function foldSession(session: SessionState, node: TreeNode): SessionState {
  const event = tidyingEventOf(node);
  if (!event) return session;
  switch (event.type) {
    case 'action-taken': {
      const decision = parseDecisionEvent(event);
      if (!decision) return session;
      const next = applyDecision(
        session,
        decision.extract,
        decision.action,
        decision.nextPhase,
        node.createdAt,
      );
      return next.ok ? next.value : session;
    }
    case 'user-confirmed':
    case 'user-corrected': {
      const item = mkItemName(event.item);
      const disposition = parseDisposition(event.disposition);
      if (!item.ok || !disposition) return session;
      return sortItem(session, item.value, placementOf(disposition, spaceOf(session)));
    }
    case 'photo-analyzed': {
      const analysis = parsePhotoAnalysis(event.analysis);
      if (!analysis) return session;
      return { ...withSeen(session, analysis.visibleItems), room: analysis.roomType };
    }
    case 'function-chosen': {
      const fn = mkSpaceFunction(event.function);
      return fn.ok ? { ...session, phaseData: withFunction(session.phaseData, fn.value) } : session;
    }
    case 'session-ended':
    case 'session-confirmed-done':
      return { ...session, phaseData: endedFrom(session) };
    default:
      return session;
  }
}

function withFunction(d: PhaseData, fn: SpaceFunction): PhaseData {
  switch (d.phase) {
    case 'surveying':
      return { ...d, gatheredFunction: fn };
    case 'ended':
      return { ...d, function: fn };
    default:
      return { ...d, active: { ...d.active, function: fn } };
  }
}

/** The session at the start of a conversation, on the wire. */
export const INITIAL_TIDYING_STATE: Json = toJson(toWire(initialSession));

/**
 * Each wire state read, with the typed session it was read as. A fold hands the same state object
 * to every reader until an event changes the session, and a turn reads it several times: each wire
 * state is checked and typed once. Both forms are immutable, so a pair once made stays true.
 */
const typed = new WeakMap<object, SessionState>();

/** The session at a node, typed; the initial session if the state is not one (never expected). */
export function sessionOf(state: Json): SessionState {
  const known = typeof state === 'object' && state !== null ? typed.get(state) : undefined;
  if (known) return known;
  const parsed = fromWire(state);
  const session = parsed.ok ? parsed.value : initialSession;
  if (typeof state === 'object' && state !== null) typed.set(state, session);
  return session;
}

/**
 * The reducer `GET .../state` serves and the coach decides from. Its state is the wire shape of
 * libs/domain's TidyingState; nodes that are not tidying events pass through without parsing.
 */
export const tidyingReducer: StateReducer = {
  name: 'tidying',
  // 2: piles from one placement rule, destinations, the room, derived counts, the ended phase;
  // 3: the thing last sorted (what "undo that" takes back); 4: every thing sorted, in order
  // (what "undo that" said again takes back); 5: where in the space a kept thing goes (spots);
  // 6: some of the thing in question told apart ("the big one I never use") comes right after it.
  // Older snapshots are ignored; a summary that kept only an older state is upgraded below.
  version: 6,
  initial: INITIAL_TIDYING_STATE,
  apply: (state, node) => {
    if (node.kind === 'summary') return fromOlderVersion(state, node);
    if (!tidyingEventOf(node)) return state;
    const session = sessionOf(state);
    const next = foldSession(session, node);
    // An event that changes nothing (most of them) keeps the state object, and with it its reading.
    return next === session ? state : toJson(toWire(next));
  },
};

/**
 * A summary written by an older version keeps the session as that version folded it, and the
 * nodes it replaced are gone: the newest older state is read as this version's wire shape, which
 * fills in what that version did not keep (no spots before 5, no sorted order before 4) as empty.
 */
function fromOlderVersion(state: Json, node: TreeNode): Json {
  const states = (node.payload as { states?: { [key: string]: Json } }).states ?? {};
  for (let version = tidyingReducer.version - 1; version >= 1; version--) {
    const kept = states[summaryStateKey({ name: 'tidying', version })];
    if (kept === undefined) continue;
    const session = fromWire(kept);
    if (session.ok) return toJson(toWire(session.value));
  }
  return state;
}
