import {
  ElicitTypes,
  ElicitTypeSchema,
  type Disposition,
  type ElicitPayload,
  type ElicitRequest,
  type ElicitType,
  type Json,
} from '@sweatpants/domain';
import type { Operation } from 'effection';
import { askForm } from './cli-form';
import type { Candidate, CliIo, Settled } from './cli-io';

/** One prompt style: reads until it has a candidate answer (which the caller then checks). */
export type Prompt = (request: ElicitRequest, io: CliIo) => Operation<Candidate>;

const accept = (content: Json): Candidate => ({ action: 'accept', content });
const settledBy = (got: string | Settled): got is Settled => typeof got !== 'string';
const YES = /^(y|yes|true)$/i;
const NO = /^(n|no|false)$/i;
const DENIED = /^(denied|deny)$/i;

/** The payload of `request` as its type declares it (an agent's malformed payload fails here). */
function payloadOf<T extends ElicitType>(type: T, request: ElicitRequest): ElicitPayload<T> {
  return ElicitTypes[type].payload.parse(request.payload) as ElicitPayload<T>;
}

function* chat(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { placeholder } = payloadOf('chat', request);
  if (placeholder) io.say(`  (${placeholder})`);
  for (;;) {
    const got = yield* io.read('you> ');
    if (settledBy(got)) return got.settled;
    if (got.trim() !== '') return accept({ text: got });
  }
}

function* freeText(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { placeholder } = payloadOf('free-text', request);
  const got = yield* io.read(placeholder ? `(${placeholder}) > ` : '> ');
  return settledBy(got) ? got.settled : accept({ text: got });
}

function* confirm(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { default: byDefault } = payloadOf('confirm', request);
  for (;;) {
    const got = yield* io.read(byDefault ? '[Y/n] ' : '[y/N] ');
    if (settledBy(got)) return got.settled;
    const text = got.trim();
    if (text === '') return accept({ value: byDefault });
    if (YES.test(text)) return accept({ value: true });
    if (NO.test(text)) return accept({ value: false });
    io.say('  Answer y or n.');
  }
}

/** The kinds a person can name by a word; anything else typed is a place. */
const DISPOSITION_WORDS: Record<string, Disposition> = {
  trash: { kind: 'trash' },
  donate: { kind: 'donate' },
  recycle: { kind: 'recycle' },
  skip: { kind: 'skip' },
  'need-more-info': { kind: 'need-more-info' },
};

function* proposeDisposition(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { item, choices, reason } = payloadOf('propose-disposition', request);
  io.say(`  Item: ${item}${reason ? ` (${reason})` : ''}`);
  choices.forEach((c, i) => io.say(`  ${i + 1}. ${c.label}`));
  io.say('  Or type where it goes instead, or trash, donate, recycle, skip, need-more-info.');
  for (;;) {
    const got = yield* io.read('choice> ');
    if (settledBy(got)) return got.settled;
    const text = got.trim();
    const picked = choices[Number(text) - 1];
    if (/^\d+$/.test(text) && picked)
      return accept({ disposition: picked.disposition, wasCorrection: false });
    if (text === '') continue;
    const disposition = DISPOSITION_WORDS[text.toLowerCase()] ?? { kind: 'place', location: text };
    // Naming what a choice already proposed is taking that choice, not correcting it.
    const offered = choices.some((c) => JSON.stringify(c.disposition) === JSON.stringify(disposition));
    return accept({ disposition, wasCorrection: !offered });
  }
}

function* choose(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { options, reveals } = payloadOf('choose', request);
  options.forEach((o, i) => io.say(`  ${i + 1}. ${o.label}${o.description ? ` - ${o.description}` : ''}`));
  for (;;) {
    const got = yield* io.read('choice> ');
    if (settledBy(got)) return got.settled;
    const text = got.trim();
    const option =
      (/^\d+$/.test(text) ? options[Number(text) - 1] : undefined) ??
      options.find((o) => o.id === text || o.label.toLowerCase() === text.toLowerCase());
    if (!option) {
      if (text !== '') io.say(`  Pick 1 to ${options.length}.`);
      continue;
    }
    const reveal = reveals?.[option.id];
    const type = ElicitTypeSchema.safeParse(reveal?.type);
    if (!reveal || !type.success) return accept({ choiceId: option.id });
    // The option's follow-up question (seed 000's reveals), asked right after the choice.
    const revealed = yield* io.ask({
      elicitId: `${request.elicitId}/${option.id}`,
      type: type.data,
      message: reveal.message,
      payload: reveal.payload as ElicitRequest['payload'],
    });
    return accept(
      revealed.action === 'accept'
        ? { choiceId: option.id, revealed: revealed.content as Json }
        : { choiceId: option.id },
    );
  }
}

function* group(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { questions } = payloadOf('group', request);
  io.say(`  ${questions.length} question${questions.length === 1 ? '' : 's'}:`);
  questions.forEach((q, i) => io.say(`  ${i + 1}. ${q.message}`));
  const answers: { [id: string]: Json } = {};
  for (const [i, q] of questions.entries()) {
    const type = ElicitTypeSchema.safeParse(q.type);
    if (!type.success) {
      io.say(`  (question ${i + 1} is of a type this terminal cannot ask: ${q.type}; skipped)`);
      continue;
    }
    const answer = yield* io.ask({
      elicitId: `${request.elicitId}/${q.id}`,
      type: type.data,
      message: `(${i + 1}/${questions.length}) ${q.message}`,
      payload: q.payload as ElicitRequest['payload'],
    });
    // Leaving one question (a cancel, an off-script remark) leaves the group the same way.
    if (answer.action !== 'accept') return answer as Candidate;
    answers[q.id] = answer.content as Json;
  }
  return accept({ answers });
}

function* location(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { accuracy } = payloadOf('location', request);
  for (;;) {
    const got = yield* io.read(`lat,lng (${accuracy} accuracy) or denied> `);
    if (settledBy(got)) return got.settled;
    const text = got.trim();
    if (DENIED.test(text)) return { action: 'denied' };
    const match = /^(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)$/.exec(text);
    if (match) return accept({ lat: Number(match[1]), lng: Number(match[2]) });
    io.say('  Type a latitude and longitude like 48.85,2.35, or denied.');
  }
}

function* clipboardRead(_request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const got = yield* io.read('clipboard text (or denied)> ');
  if (settledBy(got)) return got.settled;
  return DENIED.test(got.trim()) ? { action: 'denied' } : accept({ text: got });
}

function* clipboardWrite(request: ElicitRequest, io: CliIo): Operation<Candidate> {
  const { text } = payloadOf('clipboard-write', request);
  io.say('  To copy:');
  for (const line of text.split('\n')) io.say(`  | ${line}`);
  for (;;) {
    const got = yield* io.read('copied? [Y/n] or denied> ');
    if (settledBy(got)) return got.settled;
    const answer = got.trim();
    if (DENIED.test(answer)) return { action: 'denied' };
    if (answer === '' || YES.test(answer)) return accept({ success: true });
    if (NO.test(answer)) return accept({ success: false });
  }
}

/** One prompt style per elicit type of PROTOCOL.md's table. */
export const PROMPTS: { readonly [T in ElicitType]: Prompt } = {
  chat,
  'propose-disposition': proposeDisposition,
  choose,
  confirm,
  'free-text': freeText,
  group,
  form: askForm,
  location,
  'clipboard-read': clipboardRead,
  'clipboard-write': clipboardWrite,
};
