/**
 * What the space is for, as the offline reading of a tidying message hears it said: "for working",
 * "we can't park the car anymore", "my parents are coming for christmas".
 */

// ("I can't work here anymore" says what it is for as plainly as "for working")
const FUNCTION =
  /\b(?:for|to|where (?:i|we)|(?:i|we|they|he|she|(?:the |my |our )?(?:kids|children)) (?:can'?t|cannot|can not|couldn'?t)(?: even)?)\s+(work|working|sleep|sleeping|read|reading|cook|cooking|relax|relaxing|study|studying|play|playing|eat|eating|park(?:ing)?(?: the car| my car| our car)?|get dressed|getting dressed)\b/;

/**
 * Where the person does a thing says the space is for it: "I work from home", "we sleep in here
 * too", "the kids do their homework at this table" (homework is studying).
 */
const DONE_HERE =
  /\b(?:i|we|they|he|she|(?:the |my |our )?(?:kids|children))\s+(?:(work|sleep|read|cook|study|play|eat)s?|do (?:my|our|their|his|her) (homework))\s+(?:from home|(?:in )?here|in there|at (?:this|that|the|my|our) (?:desk|table))\b/;

/** Words that say the space is for guests: "my parents are coming for christmas", "I have people coming on saturday". */
const GUESTS =
  /\b(?:guests?|(?:people|family|parents|in-?laws|friends|mum|mom|dad|mother|father|sister|brother|gran|nan)\s+(?:(?:are|is)\s+)?(?:coming|staying|visiting|over|round)|having (?:people|friends|guests) (?:over|round)|(?:needs?|has) to be a (?:spare |guest )?bedroom)\b/;

/** …who stay the night: "it needs to be a bedroom again", "they're staying the weekend". */
const STAYING = /\b(?:stay(?:ing|s)?|sleep(?:ing)? over|overnight|the night|bedroom)\b/;

/**
 * What the space is for, as a doing: "work" → "working", "park the car" → "parking the car",
 * "get dressed" → "getting dressed".
 */
const doing = (said: string) => {
  const [verb = '', ...rest] = said.split(' ');
  const ing = verb.endsWith('ing') ? verb : verb === 'get' ? 'getting' : `${verb}ing`;
  return [ing, ...rest].join(' ').replace(/\b(?:my|our) car$/, 'the car');
};

/**
 * What lower-cased words say the space is for, as a doing; null when they say nothing of it. Guests
 * make it for having them to stay, or over.
 *
 * @example
 * purposeIn("we can't park the car anymore"); // 'parking the car'
 * purposeIn('I work from home'); // 'working'
 * purposeIn('I have people coming on saturday'); // 'having people over'
 */
export function purposeIn(t: string): string | null {
  const said = FUNCTION.exec(t)?.[1];
  if (said) return doing(said);
  const done = DONE_HERE.exec(t);
  if (done) return done[2] ? 'studying' : doing(done[1] ?? '');
  if (!GUESTS.test(t)) return null;
  return STAYING.test(t) ? 'having guests to stay' : 'having people over';
}
