import { SOMEONE_ELSE } from '@sweatpants/agent-runtime/offline';
import { NOT_A_THING } from './offline-things';

/**
 * Where the offline reading of a tidying message sends a thing: a place named after a verb ("the
 * mug goes in the kitchen"), a thing and its place with no verb ("books on the shelf"), the
 * recycling, a charity, the wash, or back to whoever it belongs to.
 */

/** A place named after a verb: "goes in the kitchen", "put them on the shelf", "is back in the drawer". */
const PLACE =
  /\b(?:goes|go|put it|put them|(?:put|keep|took|take|moved?|brought|bring|carried|carry) (?:the |my |this |that |these |those )?[a-z]+(?: [a-z]+)?|(?:gets?|got) (?:taken|moved|put|brought|carried|stored|kept)|belongs?|stays?|keep it|keep them|keeps?|kept|stored?|(?:is|are) (?:now |already )?back|(?:is|are) (?:now|already))\s+(?:in|on|into|at|to|by|under)\s+(?:the\s+|my\s+)?([a-z][a-z ]*?)(?:\s+(?:now|already|again|too|really|though|i guess|i think|probably|anyway|actually|for now|today|tonight|tomorrow|later|next week|at the weekend|this weekend))*(?=[,.!?]|$)/;
/** A thing and where it goes, with no verb: "books on the shelf", "the mugs to the kitchen". */
const MOVED_TO =
  /^(?:(?:the|my|these|those|some|all the|all my)\s+)?([a-z]+(?: [a-z]+)?)\s+(?:in|on|onto|into|to|by|under)\s+(?:the|my)\s+([a-z][a-z ]*?)[.!]*$/;
/** Words that make the first half no thing ("put it", "whatever is"), or the second where things lie. */
export const NOT_MOVED =
  /\b(?:go|goes|is|are|was|were|stay|stays|belong|belongs|can|should|must|will|needs?|has|have|it|them|put|keep|whatever|stuff|things|everything|something|all|floor|ground)\b/;

/** A thing said to be someone else's: "they're my partner's", "it belongs to my son". */
const OWNED_BY =
  /\b(?:(?:it'?s|its|they'?re|theyre|they are|it is|those are|that'?s|these are) (?:actually |all )?my ([a-z]+)'s\b|belongs? to my ([a-z]+)\b)/;

/** Given to someone: "give them to my brother", "my sister can have it". */
const GIVEN_TO =
  /\b(?:give (?:it |them |these |those |that |this )?(?:back )?to|pass (?:it |them )?on to|hand (?:it |them )?(?:down |over )?to) my ([a-z]+)\b|\bmy ([a-z]+) (?:can|could|might|would|will|wants? to) (?:have|take|use)\b/;

/** Sold: "I'll sell them on ebay", "they can go on vinted". */
const SOLD = /\b(?:sell|sold|selling|ebay|vinted|depop|marketplace|car boot)\b/;

/** The thing and the place of words that only say where it goes ("books on the shelf"); null otherwise. */
export function movedTo(t: string): { thing: string; place: string } | null {
  const [, thing, place] = MOVED_TO.exec(t) ?? [];
  if (!thing || !place || NOT_MOVED.test(thing) || NOT_MOVED.test(place) || NOT_A_THING.test(thing))
    return null;
  return { thing, place };
}

/** Where the words send a thing: a place named after a verb, or the recycling, or a charity. */
export function placeIn(t: string): string | null {
  // "they're my partner's, not mine": back to whoever they belong to
  const owner = OWNED_BY.exec(t);
  const given = GIVEN_TO.exec(t);
  const who = owner?.[1] ?? owner?.[2] ?? given?.[1] ?? given?.[2];
  if (who) return `your ${who}`;
  if (SOLD.test(t)) return 'sell pile';
  const named = PLACE.exec(t)?.[1]?.trim() ?? movedTo(t)?.place;
  // "the old trainers can go to charity": given away, not taken to a place called "charity"
  if (named && /^(?:a |the )?(?:charity|charity shop|donations?|donation bag|goodwill)$/.test(named))
    return 'donation';
  if (named) return named;
  // "the post I'll sort at the table": where it will be gone through is where it goes
  const sortedAt =
    /\b(?:sort|go through|deal with|open|read)\s+(?:it\s+|them\s+)?(?:at|on)\s+(?:the|my)\s+((?:kitchen |dining )?table|desk)\b/.exec(
      t,
    )?.[1];
  if (sortedAt) return sortedAt;
  // "the winter ones can go upstairs": up, or down, the stairs is a place too
  const stairs =
    /\b(?:go|goes|take (?:it|them)|put (?:it|them)|move (?:it|them)|belongs?)\s+(upstairs|downstairs)\b/.exec(
      t,
    )?.[1];
  if (stairs) return stairs;
  if (/\brecycl(?:e|ed|ing)\b/.test(t)) return 'recycling';
  // "compost it": a plant past saving, peelings
  if (/\bcompost(?:ed|ing)?\b/.test(t)) return 'compost';
  // "most of it needs washing": to the wash, by way of the laundry basket
  if (
    /\b(?:needs?|to be|for the) (?:a )?wash(?:ing|ed)?\b|\b(?:needs?|to be) (?:cleaned|laundered)\b/.test(t)
  )
    return 'laundry basket';
  // "someone else might use it": given away
  if (/\b(?:donated?|give (?:it |them )?away|to (?:a )?charity)\b/.test(t) || SOMEONE_ELSE.test(t))
    return 'donation';
  return null;
}
