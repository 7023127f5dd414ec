import {
  DispositionSchema,
  ElicitTypes,
  type Disposition,
  type ElicitRequest,
  type Json,
} from '@sweatpants/domain';
import * as z from 'zod';
import { log, createTool, ToolReply, ToolSuccess, type Tool } from '@sweatpants/agent-runtime';
import { withDonationOffer } from './donation-hand-off';
import { landedText, whatComesNext, type LandedAt } from './landed-words';
import { askQuestion, type Asked, type ChoiceOption, type Question } from './question';
import { currentSession, toldInPartsLast } from './session-io';
import { anchorsOf, isOnAPile, nextSeenOf, phaseOf, type SessionState } from './session-state';
import { recordEvent } from './tidying-events';
import { mkItemName } from './tidying-types';

/**
 * The tools that ask the user something (seed 002): each builds a question of the DSL, asks it
 * with the question timeout, and on a fallback (declined, timed out, failed) goes on with the
 * seed's fallback answer rather than fail the turn.
 */

/**
 * propose_disposition, settling the turn: once the person answers the card, the coach says where
 * the item landed and what comes next itself (ToolReply), so a tap costs no model call. Decision
 * support offers `proposeForStuckItem` instead, whose result the model reads to resume sorting.
 */
export const proposeDisposition: Tool = proposeDispositionTool({ settles: true });
export const proposeForStuckItem: Tool = proposeDispositionTool({ settles: false });

function proposeDispositionTool({ settles }: { settles: boolean }): Tool {
  return createTool('propose_disposition')
    .description(
      'Propose what to do with one item; the user confirms with one tap or picks another choice. Put your best guess first.',
    )
    .input(
      z.object({
        item: z.string().trim().min(1).describe('the item, as the user would name it'),
        choices: z
          .array(z.object({ label: z.string().min(1), disposition: DispositionSchema }))
          .min(1)
          .describe('your proposal first, then alternatives'),
        reason: z.string().optional().describe('why you propose the first choice, in a few words'),
      }),
    )
    .execute(function* (input) {
      const [first, ...rest] = input.choices;
      if (!first)
        return ToolSuccess({ item: input.item, disposition: { kind: 'skip' }, wasCorrection: false });
      yield* recordEvent({
        type: 'item-proposed',
        item: input.item,
        choices: input.choices.map((c) => c.label),
      });
      const question: Question = {
        kind: 'propose-disposition',
        item: input.item,
        choices: [first, ...rest],
        ...(input.reason ? { reason: input.reason } : {}),
      };
      const state = yield* currentSession();
      const asked = yield* withDonationOffer(
        input.item,
        first.disposition,
        function* () {
          const asked = yield* askQuestion(question, state);
          // Recorded as soon as the card is answered: the item lands on its pile even while the
          // donation helper's question about it still waits.
          if (asked.answer.kind === 'disposition' && !asked.fallback) {
            const { disposition, wasCorrection } = asked.answer;
            yield* recordEvent({
              type: wasCorrection ? 'user-corrected' : 'user-confirmed',
              item: input.item,
              disposition,
            });
          }
          return asked;
        },
        givenAway,
      );
      // Settled by the words said at it, which told the thing all in its parts: each part has
      // landed, and the thing is done.
      if (asked.fallback && (yield* toldInPartsLast(input.item))) {
        const where = landing(yield* currentSession(), input.item);
        const value = { item: input.item, inParts: true, ...where };
        return ToolReply(value, landedText({ ...where, item: input.item, inParts: true }));
      }
      // Settled by the words said at it, which were doubt ("it might fit again one day"): decision
      // support asked about the thing on a card of its own, and the person decided there, where
      // it was said where the thing landed. What comes next is all that is left to say.
      const after = yield* currentSession();
      const item = mkItemName(input.item);
      if (asked.fallback && item.ok && !isOnAPile(state, item.value) && isOnAPile(after, item.value)) {
        const where = landing(after, input.item);
        return ToolReply({ item: input.item, decidedApart: true, ...where }, whatComesNext(where));
      }
      if (asked.answer.kind !== 'disposition' || asked.fallback) {
        yield* log('warn', 'propose_disposition: no answer, skipping the item for now', { item: input.item });
        return ToolSuccess({
          item: input.item,
          disposition: { kind: 'skip' },
          wasCorrection: false,
          fallback: true,
        });
      }
      const { disposition, wasCorrection } = asked.answer;
      const where = landing(yield* currentSession(), input.item);
      const value = { item: input.item, disposition: dispositionJson(disposition), wasCorrection, ...where };
      return settles
        ? ToolReply(value, landedText({ ...where, item: input.item, disposition }))
        : ToolSuccess(value);
    });
}

/**
 * Whether a card's answer gives the thing away (or is no decision yet: words still to be read, the
 * card not answered), so the donation helper's offer about it still holds.
 */
function givenAway(asked: Asked): boolean {
  if (asked.fallback || asked.answer.kind !== 'disposition') return true;
  const d = asked.answer.disposition;
  return d.kind === 'donate' || (d.kind === 'place' && d.location === 'donation');
}

/** Where the answer put the item, and how the session stands, so the reply can say what comes next. */
function landing(state: SessionState, item: string): LandedAt {
  const { belongs, out, unsure } = state.piles;
  const pile = out.some((i) => i === item) ? 'out' : belongs.some((i) => i === item) ? 'belongs' : 'unsure';
  const destination = [...state.destinations].find(([i]) => i === item)?.[1];
  const next = nextSeenOf(state);
  return {
    pile,
    ...(destination ? { destination } : {}),
    unsure: unsure.length,
    phase: phaseOf(state),
    // what the photos showed that is still to come, so the reply names it rather than "what next?"
    ...(next ? { next } : {}),
  };
}

const dispositionJson = (d: Disposition): Json =>
  d.kind === 'place' ? { kind: d.kind, location: d.location } : { kind: d.kind };

const OTHER = 'other';
const DEFAULT_FUNCTIONS = ['working', 'sleeping', 'relaxing', 'cooking', 'making things'];

/** Whether a waiting question is the one ask_space_function asks (its options' ids say so). */
export function isSpaceFunctionQuestion(question: ElicitRequest): boolean {
  if (question.type !== 'choose') return false;
  const card = ElicitTypes.choose.payload.safeParse(question.payload);
  return card.success && card.data.options.some((o) => /^function-\d+$/.test(o.id));
}

/**
 * The purpose words said aside at the space's card give ("sleeping mostly, and the clothes go in
 * the wardrobe"), with the card's answer for it: the purpose the reading found, as the option of
 * that name or in the person's own words, else the one option the words name. Null when they name
 * none (or several).
 */
export function spaceFunctionIn(
  question: ElicitRequest,
  found: string | null,
  words: string,
): { purpose: string; answer: { [key: string]: Json } } | null {
  const card = ElicitTypes.choose.payload.safeParse(question.payload);
  if (!card.success) return null;
  const purposes = card.data.options.filter((o) => o.id !== OTHER);
  // whole words only: "relaxing" is not named by "relax"
  const asWords = (text: string) =>
    ` ${text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()} `;
  const said = asWords(words);
  const named = purposes.filter((o) =>
    found ? o.label.toLowerCase() === found.toLowerCase() : said.includes(asWords(o.label)),
  );
  if (named.length === 1 && named[0]) return { purpose: named[0].label, answer: { choiceId: named[0].id } };
  return found ? { purpose: found, answer: { choiceId: OTHER, revealed: { text: found } } } : null;
}

export const askSpaceFunction: Tool = createTool('ask_space_function')
  .description(
    'Ask what the user needs to DO in this space, offering likely purposes; they can write their own.',
  )
  .input(
    z.object({
      prompt: z.string().optional().describe('the question, if you want to word it yourself'),
      options: z.array(z.string().min(1)).max(6).optional().describe('likely purposes, from the photo'),
    }),
  )
  .execute(function* (input) {
    const labels = input.options?.length ? input.options : DEFAULT_FUNCTIONS;
    const options = labels.map((label, i) => ({ id: `function-${i + 1}`, label }));
    // "Something else" comes last and reveals a free-text answer (seed 000's reveals).
    const shown: [ChoiceOption, ...ChoiceOption[]] = [{ id: OTHER, label: 'Something else' }];
    shown.unshift(...options);
    const question: Question = {
      kind: 'choose',
      prompt: input.prompt ?? 'What do you need to DO in this space?',
      options: shown,
      reveals: { [OTHER]: { kind: 'free-text', prompt: 'What is it for?', placeholder: 'e.g. reading' } },
    };
    const asked = yield* askQuestion(question, yield* currentSession());
    const answer = asked.answer;
    const chosen =
      answer.kind !== 'choice'
        ? ''
        : answer.choiceId === OTHER
          ? answer.revealed?.kind === 'text'
            ? answer.revealed.text.trim()
            : ''
          : (options.find((o) => o.id === answer.choiceId)?.label ?? '');
    if (chosen === '') return ToolSuccess({ function: null, fallback: true });
    yield* recordEvent({ type: 'function-chosen', function: chosen });
    // what was said to stay for sure meanwhile (at the card, in the same words), to be said back
    const staying = anchorsOf(yield* currentSession());
    return ToolSuccess({ function: chosen, ...(staying.length > 0 ? { staying: [...staying] } : {}) });
  });

export const confirmDone: Tool = createTool('confirm_done')
  .description('Ask whether the user is done for now, and what to remember if things are left unsure.')
  .input(z.object({ question: z.string().optional() }))
  .execute(function* (input) {
    const question: Question = {
      kind: 'group',
      prompt: 'Wrapping up',
      questions: [
        {
          id: 'done',
          question: { kind: 'confirm', prompt: input.question ?? 'Done for now?', default: false },
        },
        {
          id: 'remember',
          question: {
            kind: 'conditional',
            condition: { kind: 'pile-at-least', pile: 'unsure', size: 1 },
            question: { kind: 'free-text', prompt: 'Anything to remember about the unsure pile?' },
          },
        },
      ],
    };
    const asked = yield* askQuestion(question, yield* currentSession());
    const answers = asked.answer.kind === 'group' ? asked.answer.answers : {};
    const done = answers['done']?.kind === 'confirm' && answers['done'].value;
    const note = answers['remember']?.kind === 'text' ? answers['remember'].text : '';
    if (done) yield* recordEvent({ type: 'session-confirmed-done' });
    return ToolSuccess({ done, ...(note ? { note } : {}), ...(asked.fallback ? { fallback: true } : {}) });
  });
