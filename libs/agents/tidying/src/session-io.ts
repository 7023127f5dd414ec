import type { Json } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { Run } from '@sweatpants/agent-runtime';
import type { Decision } from './decide';
import type { Extract } from './observation';
import { phaseOf, type SessionState } from './session-state';
import { actionJson, extractJson, latestEvent, parseDecisionEvent, recordEvent } from './tidying-events';
import { sessionOf, tidyingReducer } from './tidying-reducer';
import { applyDecision } from './transition';

/** The session at the turn's HEAD: the fold of the path so far. */
export function* currentSession(): Operation<SessionState> {
  const run = yield* Run.expect();
  return sessionOf(run.journal.fold(tidyingReducer));
}

/**
 * Whether the latest decision took `item` as told all in its parts (the words said at its card
 * sorted its parts): its card, settled by them, has no answer of its own.
 */
export function* toldInPartsLast(item: string): Operation<boolean> {
  const run = yield* Run.expect();
  const event = latestEvent(run.journal.path(), 'action-taken');
  const decision = event ? parseDecisionEvent(event) : null;
  return !!decision && 'partsOf' in decision.action && decision.action.partsOf === item;
}

/**
 * Records a decision: `action-taken` (which the fold applies) and, when the phase moves,
 * `phase-changed`. A decision the phases cannot hold is refused before anything is written.
 */
export function* recordDecision(
  decision: Decision,
  extract: Extract,
): Operation<{ ok: true; state: SessionState } | { ok: false; message: string }> {
  const before = yield* currentSession();
  const checked = applyDecision(
    before,
    extract,
    decision.action,
    decision.nextPhase,
    new Date(0).toISOString(),
  );
  if (!checked.ok) return { ok: false, message: checked.error.message };
  yield* recordEvent({
    type: 'action-taken',
    action: actionJson(decision.action),
    nextPhase: decision.nextPhase,
    extract: extractJson(extract),
  });
  const from = phaseOf(before);
  if (from !== decision.nextPhase)
    yield* recordEvent({ type: 'phase-changed', from, to: decision.nextPhase });
  return { ok: true, state: yield* currentSession() };
}

/** A plain object of a tool's result, as JSON. */
export const asJson = (value: { [key: string]: Json }): Json => value;
