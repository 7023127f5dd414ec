import {
  ElicitTypes,
  type Disposition,
  type ElicitPayload,
  type TidyingPhase,
  toJsonObject,
} from '@sweatpants/domain';
import type { Operation } from 'effection';
import { ask, type ElicitInput } from '@sweatpants/agent-runtime';
import { functionOf, phaseOf, type SessionState } from './session-state';

/**
 * Seed 002's question DSL, mapped onto PROTOCOL.md's elicit types. Every question has the seed's
 * fallback answer, taken when it is declined, times out or fails. The seed's known issues are
 * fixed here: a group sends every question, a choose's reveals go out with it and come back in
 * its answer, and a conditional question is asked only when its condition holds.
 */

export interface ProposedChoice {
  label: string;
  disposition: Disposition;
}
export interface ChoiceOption {
  id: string;
  label: string;
  description?: string;
}

/** A question that is one elicit of its own. */
export type LeafQuestion =
  | {
      kind: 'propose-disposition';
      item: string;
      choices: readonly [ProposedChoice, ...ProposedChoice[]];
      reason?: string;
    }
  | {
      kind: 'choose';
      prompt: string;
      options: readonly [ChoiceOption, ...ChoiceOption[]];
      reveals?: Readonly<Record<string, RevealQuestion>>;
    }
  | { kind: 'free-text'; prompt: string; placeholder?: string }
  | { kind: 'confirm'; prompt: string; default: boolean };

/** What a choose option may reveal: a follow-up the client shows in place. */
export type RevealQuestion = Extract<LeafQuestion, { kind: 'free-text' | 'confirm' }>;

export type Condition =
  | { kind: 'phase-is'; phase: TidyingPhase }
  | { kind: 'has-function' }
  | { kind: 'pile-at-least'; pile: 'belongs' | 'out' | 'unsure'; size: number }
  | { kind: 'not'; condition: Condition };

export type GroupMember =
  LeafQuestion | { kind: 'conditional'; condition: Condition; question: LeafQuestion };

export type Question =
  | LeafQuestion
  | { kind: 'group'; prompt: string; questions: readonly { id: string; question: GroupMember }[] }
  | { kind: 'conditional'; condition: Condition; question: Question };

export type Answer =
  | { kind: 'disposition'; disposition: Disposition; wasCorrection: boolean }
  | { kind: 'choice'; choiceId: string; revealed: Answer | null }
  | { kind: 'text'; text: string }
  | { kind: 'confirm'; value: boolean }
  | { kind: 'group'; answers: Readonly<Record<string, Answer>> }
  /** a conditional whose condition did not hold: nothing was asked */
  | { kind: 'skipped' };

export interface Asked {
  answer: Answer;
  /** true when the answer is (or, for a group, includes) a fallback */
  fallback: boolean;
}

/** Seed 002's fallbackAnswer: skip for now, the confirm's default, an empty choice or text. */
export function fallbackAnswer(question: Question): Answer {
  switch (question.kind) {
    case 'propose-disposition':
      return { kind: 'disposition', disposition: { kind: 'skip' }, wasCorrection: false };
    case 'choose':
      return { kind: 'choice', choiceId: '', revealed: null };
    case 'free-text':
      return { kind: 'text', text: '' };
    case 'confirm':
      return { kind: 'confirm', value: question.default };
    case 'group':
      return {
        kind: 'group',
        answers: Object.fromEntries(question.questions.map((q) => [q.id, fallbackAnswer(q.question)])),
      };
    case 'conditional':
      return fallbackAnswer(question.question);
  }
}

/** Whether a condition holds for the session. */
export function holds(condition: Condition, state: SessionState): boolean {
  switch (condition.kind) {
    case 'phase-is':
      return phaseOf(state) === condition.phase;
    case 'has-function':
      return functionOf(state) !== null;
    case 'pile-at-least':
      return state.piles[condition.pile].length >= condition.size;
    case 'not':
      return !holds(condition.condition, state);
  }
}

/** The same two dispositions? (Places compare by location, ignoring case and spacing.) */
export function sameDisposition(a: Disposition, b: Disposition): boolean {
  if (a.kind === 'place' && b.kind === 'place')
    return a.location.trim().toLowerCase() === b.location.trim().toLowerCase();
  return a.kind === b.kind;
}

/** The elicit a leaf question goes out as. */
export function toElicit(question: LeafQuestion): ElicitInput {
  switch (question.kind) {
    case 'propose-disposition': {
      const payload: ElicitPayload<'propose-disposition'> = {
        item: question.item,
        choices: question.choices.map((c, i) => ({
          id: `choice-${i + 1}`,
          label: c.label,
          disposition: c.disposition,
        })),
        ...(question.reason ? { reason: question.reason } : {}),
      };
      return { type: 'propose-disposition', message: `What about the ${question.item}?`, payload };
    }
    case 'choose': {
      const reveals = question.reveals
        ? Object.fromEntries(
            Object.entries(question.reveals).map(([id, reveal]) => {
              const { type, message, payload } = toElicit(reveal);
              return [id, { type, message, payload: toJsonObject(payload) }];
            }),
          )
        : undefined;
      const payload: ElicitPayload<'choose'> = {
        options: [...question.options],
        ...(reveals ? { reveals } : {}),
      };
      return { type: 'choose', message: question.prompt, payload };
    }
    case 'free-text':
      return {
        type: 'free-text',
        message: question.prompt,
        payload: question.placeholder ? { placeholder: question.placeholder } : {},
      };
    case 'confirm':
      return { type: 'confirm', message: question.prompt, payload: { default: question.default } };
  }
}

/** An accepted content as the question's answer; null when it does not answer this question. */
export function answerFrom(question: LeafQuestion, content: unknown): Answer | null {
  switch (question.kind) {
    case 'propose-disposition': {
      const parsed = ElicitTypes['propose-disposition'].content.safeParse(content);
      if (!parsed.success) return null;
      const { disposition } = parsed.data;
      // A correction is any pick but the proposal (the first choice), whatever the client said.
      return {
        kind: 'disposition',
        disposition,
        wasCorrection: !sameDisposition(disposition, question.choices[0].disposition),
      };
    }
    case 'choose': {
      const parsed = ElicitTypes.choose.content.safeParse(content);
      if (!parsed.success) return null;
      const { choiceId, revealed } = parsed.data;
      if (!question.options.some((o) => o.id === choiceId)) return null;
      const reveal = question.reveals?.[choiceId];
      const revealedAnswer = reveal && revealed !== undefined ? answerFrom(reveal, revealed) : null;
      return { kind: 'choice', choiceId, revealed: revealedAnswer };
    }
    case 'free-text': {
      const parsed = ElicitTypes['free-text'].content.safeParse(content);
      return parsed.success ? { kind: 'text', text: parsed.data.text } : null;
    }
    case 'confirm': {
      const parsed = ElicitTypes.confirm.content.safeParse(content);
      return parsed.success ? { kind: 'confirm', value: parsed.data.value } : null;
    }
  }
}

/**
 * Asks a question of the user through the runtime's `ask` (which waits at most the question
 * timeout): the answer, or the question's fallback when none usable came.
 */
export function* askQuestion(question: Question, state: SessionState): Operation<Asked> {
  switch (question.kind) {
    case 'conditional':
      return holds(question.condition, state) ? yield* askQuestion(question.question, state) : skipped();
    case 'group':
      return yield* askGroup(question, state);
    default:
      return yield* askLeaf(question);
  }
}

const skipped = (): Asked => ({ answer: { kind: 'skipped' }, fallback: false });

function* askLeaf(question: LeafQuestion): Operation<Asked> {
  const fallback = fallbackAnswer(question);
  const asked = yield* ask(toElicit(question));
  if (asked.fallback) return { answer: fallback, fallback: true };
  const answer = answerFrom(question, asked.content);
  return answer ? { answer, fallback: false } : { answer: fallback, fallback: true };
}

function* askGroup(question: Extract<Question, { kind: 'group' }>, state: SessionState): Operation<Asked> {
  // Conditions are evaluated before asking: members whose condition fails are not shown at all.
  const shown = question.questions.flatMap(({ id, question: member }) => {
    const leaf =
      member.kind === 'conditional' ? (holds(member.condition, state) ? member.question : null) : member;
    return leaf ? [{ id, leaf }] : [];
  });
  const answers: Record<string, Answer> = Object.fromEntries(
    question.questions.map((q) => [q.id, { kind: 'skipped' }]),
  );
  if (shown.length === 0) return { answer: { kind: 'group', answers }, fallback: false };

  const questions = shown.map(({ id, leaf }) => {
    const { type, message, payload } = toElicit(leaf);
    return { id, type, message, payload: toJsonObject(payload) };
  });
  const asked = yield* ask(
    { type: 'group', message: question.prompt, payload: { questions } },
    { answers: {} },
  );
  let fallback = asked.fallback;
  for (const { id, leaf } of shown) {
    const given = asked.content.answers[id];
    const answer = given === undefined ? null : answerFrom(leaf, given);
    if (!answer) fallback = true;
    answers[id] = answer ?? fallbackAnswer(leaf);
  }
  return { answer: { kind: 'group', answers }, fallback };
}
