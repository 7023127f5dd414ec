/**
 * Words about the session rather than a thing in it, as the offline reading of a tidying message
 * hears them: taking a decision back, stopping, saying all is done, starting over, getting tired.
 */

/** Takes back what was decided ("undo that", "take it back"), when the words decide nothing new. */
export const UNDO = /\b(?:undo|take (?:that|it|this|them) back|take back|changed? my mind|scratch that)\b/;
/**
 * The thing taken back, named last ("take back the mug", "I changed my mind about the lamp"); not
 * "that too" or "that one as well", which take back the one before.
 */
export const UNDONE =
  /\b(?:the|my|this|that)\s+(?!(?:mind|too|also|one|as well|again|one too|one as well)\s*[.!?]*$)(?!mind\b)([a-z][a-z ]*?)\s*[.!?]*$/;
/** Wants to end now: the session ends with its recap. */
export const STOP =
  /\b(stop|enough|i'?m done|done for (?:today|now)|finish|call it a (?:day|night)|that'?s (?:it|all) for (?:today|now|the day)|wrap (?:it |this )?up|let'?s leave it there)\b/;
/** A space (not a thing in it) said to be done: "the desk", "my bedroom", "this corner". */
const A_SPACE =
  '(?:the|my|this|our) (?:[a-z]+ )?(?:desk|room|bedroom|kitchen|table|shelf|shelves|counter|cupboard|wardrobe|drawers?|garage|shed|hall|hallway|bathroom|office|loft|attic|floor|corner|space|area|bed|sofa)';
/**
 * Saying the last thing is sorted, at the end of their words: "that's everything I think!", "all
 * done", "that's the desk done", "the shelf is finished" (a thing said done is a card's answer).
 */
export const ALL_DONE = new RegExp(
  `(?:\\b(?:that'?s|that is|thats)\\s+(?:everything|all|the lot|it|${A_SPACE} (?:done|sorted|finished|clear))|\\ball done|\\bwe'?re done|\\bnothing (?:else|more)(?: to sort)?|^${A_SPACE} (?:is|'s) (?:all )?(?:done|sorted|finished|clear)(?: now)?)(?:,?\\s+(?:i think|i guess|really|then|now))?[.!]*$`,
);
/** Asking for a new session, not more of this one (after the recap, more words carry it on). */
export const RESTART =
  /\b(start (?:over|again|afresh|a new session)|new session|from scratch|another room|a different room|next room)\b/;
/** Getting tired without saying stop: the coach offers to wrap up (time_to_wrap). */
export const TIRED =
  /\b(tired|exhausted|worn out|sleepy|out of steam|losing steam|low on energy|need a break|this is a lot|(?:this|it|that)(?:'s| is)? taking (?:forever|ages|so long)|getting nowhere)\b/;
