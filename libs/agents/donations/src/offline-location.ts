import { INTERPRET_TOOL, waitingQuestionIn } from '@sweatpants/agent-runtime';
import { asksSomething, questionToRead, REFUSES, type OfflineRule } from '@sweatpants/agent-runtime/offline';
import { placeNamedIn } from './place-names';

/**
 * The offline helper's reading of words typed at its location question: the town they name
 * answers it ("I'm in Leeds", as Claude reads it too), a name several towns share is asked back
 * ("Reading": which one?), and other words are told what the question takes.
 */

/** What to do at the location question, said back when the words did not answer it. */
const HOW =
  'Type the town you are in (“Leeds”), tap “Share my location”, or “Skip this” and I will say what I can without it.';

/** "I'm in Leeds" typed at the location question: the town's centre is roughly where they are. */
export const townAtLocationRule: OfflineRule = {
  name: 'donations: a town typed at the location question answers it',
  when: (ctx) => ctx.offers(INTERPRET_TOOL) && questionToRead(ctx.request.system)?.type === 'location',
  reply: (ctx) => {
    const text = ctx.userText.trim();
    // "I'd rather not, I'm in Leeds" keeps it to themselves
    const read = REFUSES.test(text) ? null : placeNamedIn(text);
    // anything else is said aside (the runtime's unread rule): the side quest says what to do
    if (read?.kind !== 'place') return undefined;
    const content = { lat: read.place.lat, lng: read.place.lng };
    return { calls: [{ name: INTERPRET_TOOL, input: { answers: true, content } }] };
  },
};

/**
 * Other words said at the location question, in the side quest they run: a town several places
 * share is asked back with how to say which; a question of their own or words naming no town are
 * told what the question takes. Words that stop or refuse are the runtime's set-aside rule's, which
 * goes first.
 */
export const wordsAtLocationRule: OfflineRule = {
  name: 'donations: other words said at the location question say what it takes',
  when: (ctx) => ctx.lastSaid !== '' && waitingQuestionIn(ctx.request.system)?.type === 'location',
  reply: (ctx) => {
    const read = placeNamedIn(ctx.lastSaid);
    const cannot = asksSomething(ctx.lastSaid)
      ? "I can't answer that offline."
      : read?.kind === 'ambiguous'
        ? whichOne(read.name, read.countries)
        : 'Offline I know towns and cities by their names, and those words name none I know.';
    return { text: `(offline) ${cannot} ${HOW}` };
  },
};

/** A town's name that several places share, asked back: "I know more than one Reading (…)". */
function whichOne(typed: string, countries: readonly string[]): string {
  // "reading" as a phone types it is the town Reading
  const name = typed === typed.toLowerCase() ? typed.replace(/\b[a-z]/g, (c) => c.toUpperCase()) : typed;
  const inWords = new Intl.DisplayNames(['en'], { type: 'region' });
  const named = countries.map((code) => inWords.of(code) ?? code);
  const the = (country: string) =>
    /^(?:United|Netherlands|Philippines|Czech)\b/.test(country) ? `the ${country}` : country;
  const where =
    named.length > 1 ? ` (in ${named.slice(0, -1).map(the).join(', ')} and ${the(named.at(-1) ?? '')})` : '';
  return `I know more than one ${name}${where}: say which with its country or a city near it, as in “${name}, ${named[0] ?? 'London'}”.`;
}
