import type { Disposition, Json, StateReducer, TreeNode } from '@sweatpants/domain';
import { initialSession, type PhaseData, type Piles, type SessionState } from './session-state';
import { fromWire, toWire } from './session-wire';
import { parseDecisionEvent, parseDisposition, tidyingEventOf } from './tidying-events';
import { applyDecision } from './transition';
import { mkItemName, mkSpaceFunction, type ItemName, type SpaceFunction } from './tidying-types';

/**
 * The tidying session as a fold of the path (DESIGN.md, event-sourced state): decisions move the
 * phase and the piles, the user's answers to propose_disposition sort items, a chosen function
 * fills in what the space is for, and the end of the session is marked. Every other node leaves
 * the state as it is, so rewinding the path restores piles and phase exactly.
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
      const sorted = sortInto(session.piles, item.value, disposition);
      return sorted
        ? { ...session, piles: sorted.piles, itemsProcessed: session.itemsProcessed + sorted.processed }
        : session;
    }
    case 'function-chosen': {
      const fn = mkSpaceFunction(event.function);
      return fn.ok ? { ...session, phaseData: withFunction(session.phaseData, fn.value) } : session;
    }
    case 'session-ended':
    case 'session-confirmed-done':
      return { ...session, ended: true };
    default:
      return session;
  }
}

/**
 * Where a disposition puts an item: a place keeps it (belongs), trash, donate and recycle take it
 * out, skip leaves it unsure; needing more information sorts nothing.
 */
function sortInto(piles: Piles, item: ItemName, d: Disposition): { piles: Piles; processed: number } | null {
  const rest = {
    belongs: piles.belongs.filter((i) => i !== item),
    out: piles.out.filter((i) => i !== item),
    unsure: piles.unsure.filter((i) => i !== item),
  };
  switch (d.kind) {
    case 'place':
      return { piles: { ...rest, belongs: [...rest.belongs, item] }, processed: 1 };
    case 'trash':
    case 'donate':
    case 'recycle':
      return { piles: { ...rest, out: [...rest.out, item] }, processed: 1 };
    case 'skip':
      return { piles: { ...rest, unsure: [...rest.unsure, item] }, processed: 0 };
    case 'need-more-info':
      return null;
  }
}

function withFunction(d: PhaseData, fn: SpaceFunction): PhaseData {
  return d.phase === 'surveying'
    ? { ...d, gatheredFunction: fn }
    : { ...d, active: { ...d.active, function: fn } };
}

/** The session at the start of a conversation, on the wire. */
export const INITIAL_TIDYING_STATE: Json = toWire(initialSession) as unknown as Json;

/** The session at a node, typed; the initial session if the state is not one (never expected). */
export function sessionOf(state: Json): SessionState {
  const session = fromWire(state);
  return session.ok ? session.value : initialSession;
}

/**
 * The reducer `GET .../state` serves and the coach decides from. Its state is the wire shape of
 * libs/domain's TidyingState; nodes that are not tidying events pass through without parsing.
 */
export const tidyingReducer: StateReducer = {
  name: 'tidying',
  version: 1,
  initial: INITIAL_TIDYING_STATE,
  apply: (state, node) => {
    if (!tidyingEventOf(node)) return state;
    return toWire(foldSession(sessionOf(state), node)) as unknown as Json;
  },
};
