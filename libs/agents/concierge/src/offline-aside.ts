// The offline concierge's side quests: words typed while a card waits that pick nothing get a
// short answer (what a tier or an option means), then the card is back; "next" sets the card
// aside and the review goes on; words that stop ("I'm done") set it aside and end the review.
import { SET_QUESTION_ASIDE } from '@sweatpants/agent-runtime';
import { asksSomething, type OfflineRule } from '@sweatpants/agent-runtime/offline';
import { FINISH_REVIEW } from './set-aside';
import { cardOfferIn, openCardIn, type OpenCard } from './side-quest';

/** Words that end the interview (or, while a card waits, ask to). */
export const STOP = /\b(stop|enough|later|finish|that's all|done)\b/i;

/** What each tier means, as the options' reasons put it. */
const TIERS: Record<string, string> = {
  '1': 'Tier 1 means I archive such mail on my own, without asking you',
  '2': 'Tier 2 means I keep a note of such mail but do not show it to you',
  '3': 'Tier 3 means I show such mail to you every time, for you to review',
};
export const CARD_AGAIN = 'Here is the card again: tap an option or type its letter.';
/** Words that move on from the card without picking: "next", "skip it", "pass". */
const SKIP = /^\s*(next( one)?|skip( it| this( one)?)?|pass|move on)\s*[.!]*\s*$/i;

/**
 * Putting this card off, not the review: "I'll decide that one later", "not sure, come back to it".
 * The card is set aside as "next" sets it; "later" alone ("let's do this later") still stops.
 */
const THIS_ONE_LATER =
  /\b(?:(?:that|this|these|those) (?:one|ones|card)?\s*later|decide (?:on )?(?:it|that|this|them|those)? ?later|come back to (?:it|that|this|them|these|those)|(?:park|leave) (?:it|that|this|them) for now)\b/i;

/** The options whose letter the words ask about ("what does B mean?", "is option c…"). */
function optionsAskedAbout(card: Omit<OpenCard, 'elicitId'>, text: string): OpenCard['options'] {
  const letters = new Set<string>();
  for (const m of text.matchAll(/\boption\s+([a-z0-9])\b/gi)) letters.add((m[1] ?? '').toUpperCase());
  for (const m of text.matchAll(/\b([A-Z])\b/g)) {
    const letter = m[1] ?? '';
    const before = text.slice(0, m.index);
    // "I", and "A" opening a sentence ("A quick question: …"), are words, not letters.
    const article =
      letter === 'A' && /(?:^|[.!?]\s*)$/.test(before) && /^A\s+[a-z]/.test(text.slice(m.index));
    if (letter !== 'I' && !article) letters.add(letter);
  }
  return card.options.filter((o) => letters.has(/^([A-Z0-9])\.\s/.exec(o.label)?.[1] ?? o.id.toUpperCase()));
}

/**
 * Asking to take a pick back: "undo the Weekly Sprout one", "I changed my mind about B", "the points
 * one shouldn't have been archived".
 */
export const TAKE_BACK =
  /\b(?:undo|take (?:it |that |this |them )?back|changed? my (?:mind|pick|answer)|revert|reverse|shouldn'?t have (?:been )?(?:archived|noted|picked|chosen|done)|(?:picked|tapped|chose|pick|tap|choose) the wrong|(?:make|made) a mistake|get (?:it|this|that|one) wrong)\b/i;

/**
 * A pick is taken back the way every word is in a conversation here: by rewinding to before it
 * (its mail waits again, and the reflog keeps the pick to recover). The offline concierge says how.
 */
export const HOW_TO_TAKE_BACK =
  'To take a pick back, rewind to before it: open ⋯ on the message that picked it and choose “Rewind to here”. Its mail waits to be reviewed again, and the pick is not lost: the reflog keeps it, to recover.';

/** A pick for part of the card ("B for the Trailgear ones but Bookbarn is a newsletter"). */
const PART_PICK = /\b(?:but|except|apart from|other than)\b/i;

/** Words that say the sender is a stranger: "never heard of them", "I never signed up for that". */
export const STRANGER =
  /\b(?:never heard of|don'?t know (?:them|who|this|these|that)|no idea who|never signed up|didn'?t sign up|not signed up|(?:don'?t|do not|can'?t|cannot) remember (?:ever )?signing up)\b/i;

/** Asking to be taken off a list: "can you unsubscribe me?", "make them stop emailing me". */
const UNSUBSCRIBE =
  /\b(?:unsubscribe|opt (?:me )?out|(?:make|get) (?:them|it) (?:to )?stop|stop (?:them|it|this|these) (?:from )?(?:emailing|sending|mailing)|block (?:them|it|this sender|the sender))\b/i;

/**
 * The concierge sorts what is quarantined and cannot leave a list for the person; it says so, where
 * the way out is, and which option keeps such mail out of their way meanwhile (pointed to, not picked).
 */
function unsubscribeReply(card: Omit<OpenCard, 'elicitId'>): string {
  const list = card.options.find((o) => /marketing list/i.test(o.label));
  const letter = list ? /^([A-Z0-9])\.\s/.exec(list.label)?.[1] : undefined;
  const meanwhile = list
    ? ` Meanwhile “${list.label}” archives their mail without asking you${letter ? `: type ${letter} to pick it` : ''}.`
    : '';
  return `(offline) I cannot unsubscribe you: I only sort your quarantined mail. The way off a list is its unsubscribe link, usually at the foot of one of their emails.${meanwhile} ${CARD_AGAIN}`;
}

/**
 * Mail from a stranger is most likely a marketing list: the option that says so, pointed to (not
 * picked: what kind of sender they are is the person's to say, by its letter).
 */
function strangerHint(card: Omit<OpenCard, 'elicitId'>, part: boolean): string | undefined {
  const list = card.options.find((o) => /marketing list/i.test(o.label));
  if (!list) return undefined;
  const letter = /^([A-Z0-9])\.\s/.exec(list.label)?.[1];
  const likely = `Mail from a sender you never signed up for is most likely a marketing list: “${list.label}”.`;
  // said of one sender among others: its letter would pick for all of them, so it goes beside it
  if (part) return `${likely}${letter ? ` Put ${letter} beside that sender.` : ''}`;
  return `${likely}${letter ? ` Type ${letter} to pick it.` : ''}`;
}

/** Words that say the person reads such mail: "I actually read that one every week", "I like it". */
const READS =
  /\b(?:i\s+(?:\w+\s+)?read\s+(?:it|that|them|this|those|these)|i\s+(?:really\s+)?(?:like|love|enjoy)\s+(?:it|that|them|this|those|these|reading)|i\s+want\s+to\s+(?:see|read)\s+(?:it|that|them|this))\b/i;

/** Words that say the person does not read such mail ("I never read it"); "don't bug me" is not one. */
const READS_NOT = /\b(?:never|don'?t|do not|rarely|hardly ever)\s+(?:\w+\s+)?(?:read|like|open|look at)\b/i;

/**
 * Mail the person reads is best shown to them: the option that reviews it, pointed to (not picked:
 * which reading fits stays theirs to say, by its letter).
 */
function readerHint(card: Omit<OpenCard, 'elicitId'>): string | undefined {
  const shown = card.options.find((o) => /\(review\)\s*$/i.test(o.label));
  if (!shown) return undefined;
  const letter = /^([A-Z0-9])\.\s/.exec(shown.label)?.[1];
  return `Mail you read is best shown to you each time: “${shown.label}”.${letter ? ` Type ${letter} to pick it.` : ''}`;
}

/**
 * Tired of it, or handing the rest over: "ugh I'm tired", "can you just deal with the rest however
 * you think?", "you decide".
 */
const HANDS_OVER =
  /\b(?:tired|exhausted|worn out|you (?:decide|choose|pick)|(?:however|whatever) you (?:think|like|want)|deal with (?:the rest|them|it|the others|these)|up to you|your call)\b/i;

/**
 * What the concierge says to being handed the rest: it frames options and applies only what the
 * person picks (seed 003), so it decides nothing on its own; stopping is offered, with nothing lost.
 */
const NOT_MINE_TO_DECIDE =
  '(offline) I only apply what you pick, so I will not decide these for you. We can stop here: say “I’m done”, and what is not decided stays quarantined for next time. Or, to go on:';

/** The side quest's short answer: what the tiers or options asked about mean, then the card again. */
function asideReply(card: Omit<OpenCard, 'elicitId'>, text: string, items: number): string {
  // ("keep it but don't bug me about it" at a card of one item picks for no part of it)
  const part = PART_PICK.test(text) && !asksSomething(text) && items > 1;
  const hint = STRANGER.test(text)
    ? strangerHint(card, part)
    : !part && READS.test(text) && !READS_NOT.test(text)
      ? readerHint(card)
      : undefined;
  if (UNSUBSCRIBE.test(text) && !part) return unsubscribeReply(card);
  if (HANDS_OVER.test(text) && !hint) return `${NOT_MINE_TO_DECIDE} ${CARD_AGAIN}`;
  // ("the points one shouldn't have been archived": a pick made before this card, taken back)
  if (TAKE_BACK.test(text) && !hint) return `(offline) ${HOW_TO_TAKE_BACK} ${CARD_AGAIN}`;
  // Nothing was applied: offline, a pick for part of a card needs its letter beside each sender.
  if (part)
    return `(offline) Offline I need a letter beside each sender you name (“B for …, A for …”), so I have applied none yet.${hint ? ` ${hint}` : ''} Or pick the one that fits them all, or “Skip this” to leave them quarantined for now. ${CARD_AGAIN}`;
  if (hint) return `(offline) ${hint} ${CARD_AGAIN}`;
  const tiers = [...new Set([...text.matchAll(/\btier\s*([1-3])\b/gi)].map((m) => m[1] ?? ''))];
  if (tiers.length > 0) {
    const meanings = tiers.map((tier) => {
      const option = card.options.find((o) => new RegExp(`\\bTier ${tier}\\b`, 'i').test(o.label));
      return `${TIERS[tier]}${option ? `: on this card, “${option.label}”` : ''}.`;
    });
    return `(offline) ${meanings.join(' ')} ${CARD_AGAIN}`;
  }
  const asked = optionsAskedAbout(card, text);
  if (asked.length > 0) {
    const meanings = asked.map((o) =>
      o.description ? `“${o.label}”: ${o.description.replace(/[^.!?]$/, '$&.')}` : `“${o.label}”.`,
    );
    return `(offline) ${meanings.join(' ')} ${CARD_AGAIN}`;
  }
  if (!asksSomething(text))
    return `(offline) Offline I read a pick here (an option, or its letter), or a question about the card (“what does tier 2 mean?”). ${CARD_AGAIN}`;
  return `(offline) I cannot answer that offline; I can say what an option or a tier means (“what does tier 2 mean?”). ${CARD_AGAIN}`;
}

export const answerAside: OfflineRule = {
  name: 'concierge: words typed while a card waits (a side quest) get a short answer, then the card is back',
  when: (ctx) => !ctx.hasToolResults && openCardIn(ctx.request.system) !== undefined,
  reply: (ctx) => {
    const card = openCardIn(ctx.request.system);
    if (!card) return undefined;
    // "I'll decide that one later": this card is put off, the review goes on
    if (THIS_ONE_LATER.test(ctx.userText)) return { calls: [{ name: SET_QUESTION_ASIDE, input: {} }] };
    // "I'm done", unless it asks about the card: the card is set aside and the review ends
    // ("make them stop emailing me" asks to leave a list, not to stop)
    if (STOP.test(ctx.userText) && !asksAboutCard(card, ctx.userText) && !UNSUBSCRIBE.test(ctx.userText))
      return {
        calls: [
          { name: FINISH_REVIEW, input: { summary: 'The user stopped; undecided items stay quarantined.' } },
        ],
      };
    // "next", "skip it": this card is set aside (its items stay quarantined) and the review goes on.
    if (SKIP.test(ctx.userText)) return { calls: [{ name: SET_QUESTION_ASIDE, input: {} }] };
    // (how many items the card asks about, when its call is known: a card of one has no part to pick for)
    const items = cardOfferIn(ctx.request.system)?.activity_ids.length ?? 2;
    return { text: asideReply(card, ctx.userText, items) };
  },
};

/** The side quest's last word once finish_review set the card aside. */
export const stopAside: OfflineRule = {
  name: 'concierge: "I\'m done" typed while a card waits sets the card aside and ends the review',
  when: (ctx) => openCardIn(ctx.request.system) !== undefined && ctx.resultOf(FINISH_REVIEW) !== undefined,
  reply: () => ({ text: '(offline) We can stop here; what is not decided stays quarantined.' }),
};

/** Whether the words ask what a tier or an option of the card means. */
function asksAboutCard(card: Omit<OpenCard, 'elicitId'>, text: string): boolean {
  return /\btier\s*[1-3]\b/i.test(text) || optionsAskedAbout(card, text).length > 0;
}
