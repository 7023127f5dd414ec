import type { Disposition } from '@sweatpants/domain';
import { isPlural } from './landed-words';
import { listedThings } from './offline-things';

/**
 * What the offline model guesses from a name alone: the room a photo's words describe and what is
 * in it, what a room is for, where a thing usually goes, what a thing looks like. Reading what a
 * message says is ./offline-text's.
 */

/** Rooms by their names, and by the things that tell them when no room is named. */
const ROOMS: readonly { room: string; names: RegExp; signs?: RegExp }[] = [
  { room: 'office', names: /\b(?:office|study)\b/, signs: /\b(?:desk|computer|monitor)\b/ },
  // ("my kids room", "the nursery": a bedroom, and for playing in too)
  {
    room: "kids' room",
    names:
      /\b(?:(?:kids?'?|children'?s|boys'?|girls'?|(?:son|daughter)'s)\s*(?:bed)?room|nursery|playroom)\b/,
  },
  // ("the spare room has turned into a dumping ground": for guests to stay, often for storing too)
  { room: 'spare room', names: /\b(?:spare (?:bed)?room|guest (?:bed)?room|box ?room)\b/ },
  { room: 'bedroom', names: /\bbedroom\b/, signs: /\b(?:bed|wardrobe|dresser|nightstand)\b/ },
  { room: 'kitchen', names: /\bkitchen\b/, signs: /\b(?:counter|sink|stove|fridge)\b/ },
  {
    room: 'living room',
    names: /\b(?:living room|sitting room|lounge)\b/,
    signs: /\b(?:sofa|couch|tv|coffee table)\b/,
  },
  { room: 'hallway', names: /\b(?:hall|hallway|entrance|entryway)\b/, signs: /\bshoes\b/ },
  { room: 'bathroom', names: /\bbathroom\b/, signs: /\b(?:shower|bathtub|toilet|towels?)\b/ },
  { room: 'garage', names: /\b(?:garage|shed|workshop)\b/ },
];

/**
 * The room the words are about: the first room they name ("the hallway is a mess … mugs from the
 * office" is a hallway), else the first whose things they name ("my desk"), else a room.
 */
function roomIn(text: string): string {
  const firstBy = (which: 'names' | 'signs') => {
    let first: { room: string; at: number } | undefined;
    for (const r of ROOMS) {
      const at = r[which]?.exec(text)?.index;
      if (at !== undefined && (first === undefined || at < first.at)) first = { room: r.room, at };
    }
    return first?.room;
  };
  return firstBy('names') ?? firstBy('signs') ?? 'room';
}

const THINGS =
  /\b(mugs?|cups?|papers?|lamps?|books?|cables?|chargers?|clothes|shirts?|socks?|boxes|box|bottles?|plates?|letters?|mail|toys?|shoes?|bags?|pens?|notebooks?|magazines?|dishes|glasses|laptops?|headphones|blankets?|pillows?)\b/g;

export interface OfflinePhoto {
  roomType: string;
  chaosLevel: 'buried' | 'cluttered' | 'moderate' | 'clear';
  visibleItems: string[];
  blockedFunction: string | null;
  firstTarget: string | null;
}

/** A plausible photo analysis from the words sent with the photo. */
export function photoFromWords(text: string): OfflinePhoto {
  const t = text.toLowerCase();
  const roomType = roomIn(t);
  const chaosLevel = /\b(buried|can'?t see|everywhere|overflowing|drowning)\b/.test(t)
    ? 'buried'
    : /\b(clean|clear|tidy|finished)\b/.test(t) && !/\b(mess|messy|clutter)/.test(t)
      ? 'clear'
      : /\b(covered|mess|messy|piles?|cluttered|clutter|full)\b/.test(t)
        ? 'cluttered'
        : 'moderate';
  // the things the words list, as they name them ("bikes, paint tins, a broken lawnmower"), else
  // the everyday things they mention
  const listed = listedThings(t);
  const visibleItems = listed.length > 0 ? listed : [...new Set(t.match(THINGS) ?? [])];
  // what the words say the mess stops ("we can't park the car anymore"), else what it stops in such a room
  const said =
    /\b(?:can'?t|cannot|can not)\s+(?:even\s+)?(?!(?:decide|cope|deal|face|stand|handle|bear|think|focus|believe|remember|be|bring)\b)([a-z][a-z' ]{2,40}?)(?:\s+(?:anymore|any more|at all|now))?\s*(?=[,.;!?]|$)/.exec(
      t,
    )?.[1];
  const blockedFunction = said
    ? `can't ${said}`
    : roomType === 'office' && /\bdesk\b/.test(t)
      ? "can't use the desk"
      : roomType === 'bedroom'
        ? "can't get into bed"
        : null;
  return { roomType, chaosLevel, visibleItems, blockedFunction, firstTarget: visibleItems[0] ?? null };
}

/**
 * What is for the space with the hedges taken off: "I don't know, just walking through it I
 * guess" → "just walking through it"; empty when the words only hedge ("not sure").
 */
export function withoutHedges(words: string): string {
  return words
    .replace(/^\s*(?:(?:i\s+)?(?:don'?t|do not) know|not sure|no idea|dunno|um+|hmm+|well)\b[,.\s]*/i, '')
    .replace(/[,\s]*\b(?:i guess|i think|i suppose|maybe|probably)[.!?\s]*$/i, '')
    .trim();
}

/** Likely purposes of a room, for ask_space_function's options. */
export function functionsFor(roomType: string): string[] {
  switch (roomType) {
    case 'office':
      return ['working', 'studying', 'making things'];
    case 'bedroom':
      return ['sleeping', 'getting dressed', 'relaxing'];
    case "kids' room":
      return ['playing', 'sleeping', 'getting dressed'];
    case 'spare room':
      return ['having guests to stay', 'storing things', 'working'];
    case 'kitchen':
      return ['cooking', 'eating', 'making coffee'];
    case 'living room':
      return ['relaxing', 'watching TV', 'having people over'];
    case 'hallway':
      return ['coming and going', 'putting on shoes and coats', 'dropping keys and bags'];
    case 'bathroom':
      return ['washing', 'getting ready', 'keeping towels and toiletries'];
    case 'garage':
      return ['storing things', 'parking the car', 'fixing and making things'];
    default:
      return ['relaxing', 'working', 'storing things'];
  }
}

/** The space a guess is for, as far as the offline model knows it: its room, what it is for. */
export interface GuessedSpace {
  room: string | null;
  purpose: string | null;
}

const NO_SPACE: GuessedSpace = { room: null, purpose: null };

/** A kitchen, by its room or by what it is for ("cooking mostly, and breakfast for the kids"). */
const isKitchen = (space: GuessedSpace) =>
  space.room === 'kitchen' ||
  /\b(?:cook\w*|eat\w*|meals?|breakfast|lunch|dinner|coffee|tea|kitchen|baking)\b/.test(space.purpose ?? '');

/**
 * What is said of a thing right after its name that tells it is done with here: "a jumper that
 * doesnt fit anymore", "clothes I never wear", "a bike my daughter outgrew".
 */
const DONE_WITH =
  /^\s*(?:(?:that|which)\s+)?(?:(?:i|we|you|they|he|she|nobody|no one|the kids?|my [a-z]+)(?:'s|'ve)?\s+)?(?:(?:doesn'?t|don'?t|does not|do not|no longer|never|hardly ever|rarely|can'?t|won'?t)\s+(?:fits?|wear|use|play with|play|read|need)\b|(?:has |have |'ve )?(?:outgrew|outgrown|grew out of|grown out of)\b|(?:hurts?|pinch(?:es)?|(?:is|are) (?:too (?:small|tight|big)|uncomfortable))\b)/;

/** What is said of `item` right after its name, to the end of that clause; undefined if it is not named. */
function saidOf(said: string, item: string): string | undefined {
  const after = said.toLowerCase().split(item.toLowerCase())[1];
  return after?.split(/,|\band\b|[.;!?]/)[0];
}

/** Whether the words said of `item` tell it is done with here (see DONE_WITH). */
const doneWithIn = (said: string, item: string): boolean => DONE_WITH.test(saidOf(said, item) ?? '');

/** What is said of a thing that tells it no longer works: "the toaster is broken", "it's dead". */
const BROKEN_SAID =
  /^\s*(?:(?:is|are|'s)\s+(?:broken|dead|bust(?:ed)?|cracked|ripped|torn)|(?:doesn'?t|don'?t|does not|do not|no longer)\s+work)\b/;

/** A name that says the thing is past its use: "broken toaster", "jumper with a hole", "cookbooks that are falling apart". */
const WORN_OUT =
  /\b(?:broken|bust(?:ed)?|cracked|ripped|torn|falling apart|worn out|stained|with (?:a )?holes?)\b/;

/** A name that says a part is gone: "teddy with a missing eye", "puzzle missing pieces". */
const MISSING_PART = /\b(?:missing|without (?:its|the|a|an|some))\b/;

/** Medicines, which a pharmacy takes back ("tablets" alone may be a computer, so it is left out). */
const MEDICINES =
  /\b(?:medicines?|medications?|meds|pills|painkillers|paracetamol|ibuprofen|aspirin|prescriptions?|antibiotics|inhalers?|cough (?:syrup|mixture|medicine))\b/;

/** Electricals, which a recycling centre takes when they no longer work. */
const ELECTRICAL =
  /\b(?:microwaves?|toasters?|kettles?|lamps?|hair ?dryers?|irons?|heaters?|fans?|blenders?|hoovers?|vacuums?|radios?|tvs?|laptops?|computers?|phones?|printers?|speakers?|chargers?|cables?|headphones|monitors?|straighteners|shavers?|drills?)\b/;

/** Words that ask after mending a thing: "can it be fixed?", "I could get it repaired". */
const MENDED = /\b(?:fix(?:ed)?|repair(?:ed)?|mend(?:ed)?)\b/;

/**
 * The dispositions the offline model proposes for an item: its best guess first. `said` is what
 * the person said of it, when the guess is made on their words.
 */
export function choicesFor(
  item: string,
  space: GuessedSpace = NO_SPACE,
  said = '',
): { label: string; disposition: Disposition }[] {
  const t = item.toLowerCase();
  // "Keep them here" for the jumpers, "Keep it here" for the lamp
  const plural = isPlural(item);
  const keep = plural ? 'Keep them here' : 'Keep it here';
  const spot = plural ? 'their spot here' : 'its spot here';
  // In the kitchen the dishes are where they belong already: away in the cupboard, or washed first.
  if (/\b(mugs?|cups?|plates?|dishes|glass(es)?)\b/.test(t) && isKitchen(space))
    return [
      { label: 'Cupboard', disposition: { kind: 'place', location: 'in the cupboard' } },
      { label: 'Sink', disposition: { kind: 'place', location: 'in the sink' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  if (/\b(mugs?|cups?|plates?|dishes|glass(es)?|bottles?)\b/.test(t))
    return [
      { label: 'Kitchen', disposition: { kind: 'place', location: 'kitchen' } },
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Paperwork that may matter (statements, bills, documents) is filed first; it is never given away
  if (/\b(paperwork|documents?|bills?|statements?|forms?|contracts?|policies|payslips?)\b/.test(t))
    return [
      { label: 'File it', disposition: { kind: 'place', location: 'the filing box' } },
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  if (/\b(papers?|letters?|mail|magazines?|receipts?)\b/.test(t))
    return [
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'File it', disposition: { kind: 'place', location: 'the filing box' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Clothes waiting to be washed or ironed are on their way to be, not kept where they lie
  // ("the washing up" is dishes)
  if (/\b(?:ironing|laundry|washing(?! up)|dirty (?:clothes|washing|laundry))\b/.test(t))
    return [
      /\bironing\b/.test(t)
        ? { label: 'Ironing board', disposition: { kind: 'place', location: 'on the ironing board' } }
        : { label: 'Laundry basket', disposition: { kind: 'place', location: 'the laundry basket' } },
      { label: 'Wardrobe', disposition: { kind: 'place', location: 'in the wardrobe' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Medicines go back to a pharmacy, which disposes of them safely: never the bin, never anyone else
  if (MEDICINES.test(t))
    return [
      { label: 'Pharmacy', disposition: { kind: 'place', location: 'the pharmacy' } },
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Paint, batteries, bulbs and ink go to a recycling centre, never the bin: some paint is kept for
  // touching up
  if (/\b(paints?|paint tins?|batter(?:y|ies)|light ?bulbs?|bulbs|ink cartridges?|cartridges?)\b/.test(t))
    return [
      { label: 'Recycling centre', disposition: { kind: 'place', location: 'the recycling centre' } },
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // A thing missing a part is no one else's to have: a puzzle missing pieces goes to the
  // recycling, a teddy missing an eye is kept or binned, never donated.
  if (MISSING_PART.test(t))
    return /\b(puzzles?|jigsaws?|board ?games?|games?|cards)\b/.test(t)
      ? [
          { label: 'Recycle', disposition: { kind: 'recycle' } },
          { label: 'Trash', disposition: { kind: 'trash' } },
          { label: 'Not now', disposition: { kind: 'skip' } },
        ]
      : [
          { label: keep, disposition: { kind: 'place', location: spot } },
          { label: 'Trash', disposition: { kind: 'trash' } },
          { label: 'Not now', disposition: { kind: 'skip' } },
        ];
  // Games and puzzles finished with are the plainest things to give away: someone else plays them.
  if (/\b(puzzles?|board ?games?|dvds?)\b/.test(t) && !/\b(broken|torn)\b/.test(t))
    return [
      { label: 'Donate', disposition: { kind: 'donate' } },
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Photos and keepsakes are kept, however old: kept safe if not here, never binned at a tap.
  if (/\b(photos?|photographs?|albums?|keepsakes?|souvenirs?|certificates?|medals?)\b/.test(t))
    return [
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Keepsake box', disposition: { kind: 'place', location: 'a keepsake box' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // ("the toaster is broken, can it be fixed?": mended first, if they ask after it)
  const broken = WORN_OUT.test(t) || BROKEN_SAID.test(saidOf(said, item) ?? '');
  if (broken && MENDED.test(said))
    return [
      { label: 'Get it fixed', disposition: { kind: 'place', location: 'the repair shop' } },
      { label: 'Trash', disposition: { kind: 'trash' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // A broken electrical goes to a recycling centre with the small electricals, never the bin first
  if (broken && ELECTRICAL.test(t))
    return [
      { label: 'Recycling centre', disposition: { kind: 'place', location: 'the recycling centre' } },
      { label: 'Trash', disposition: { kind: 'trash' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  if (broken || /\b(empty|wrapper|trash)\b/.test(t))
    return [
      { label: 'Trash', disposition: { kind: 'trash' } },
      { label: 'Recycle', disposition: { kind: 'recycle' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Cables and chargers that work are kept for what they charge, else taken to a recycling centre with the
  // electricals: no one else wants a stranger's charger
  if (/\b(cables?|chargers?|wires?|leads?|cords?|adapters?|plugs?)\b/.test(t))
    return [
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Recycling centre', disposition: { kind: 'place', location: 'the recycling centre' } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  // Old is not broken: an old thing that still does its job is for someone else, as is one that
  // no longer fits or is never used.
  // ("shoes that hurt your feet": what the thing's own name says of it counts as said of it)
  if (
    /\bold\b/.test(t) ||
    doneWithIn(said, item) ||
    DONE_WITH.test(/\s((?:that|which)\s.*)$/.exec(t)?.[1] ?? '')
  )
    return [
      { label: 'Donate', disposition: { kind: 'donate' } },
      { label: keep, disposition: { kind: 'place', location: spot } },
      { label: 'Not now', disposition: { kind: 'skip' } },
    ];
  return [
    { label: keep, disposition: { kind: 'place', location: spot } },
    { label: 'Donate', disposition: { kind: 'donate' } },
    { label: 'Not now', disposition: { kind: 'skip' } },
  ];
}

/** What the offline model can say a thing looks like, by its name. */
const KINDS: readonly [RegExp, string][] = [
  [/\b(mugs?|cups?)\b/, 'something you drink from, with a handle'],
  [/\b(glass(?:es)?|bottles?)\b/, 'something that holds a drink'],
  [/\b(plates?|dishes|bowls?)\b/, 'tableware, left from a meal'],
  [/\b(papers?|letters?|mail|receipts?|bills?|magazines?|notes?)\b/, 'paper: a letter, a bill or a note'],
  [/\b(cables?|chargers?|wires?|cords?|headphones)\b/, 'a cable, or something on a cable with a plug'],
  [/\b(clothes|shirts?|socks?|scarf|scarves|jackets?|jumpers?|sweaters?)\b/, 'something to wear'],
  [/\b(books?|notebooks?)\b/, 'something with pages between two covers'],
  [/\b(lamps?)\b/, 'a light on a stand'],
  [/\b(box|boxes|bags?)\b/, 'something to keep or carry things in'],
  [/\b(pens?|pencils?)\b/, 'something to write with'],
  [/\b(toys?)\b/, 'something to play with'],
  [/\b(shoes?)\b/, 'something to wear on your feet'],
  [/\b(blankets?|pillows?)\b/, 'something soft, from a bed or a sofa'],
  [/\b(laptops?)\b/, 'a computer that folds shut'],
];

/** What a photo showed, as the prompt's session block tells the offline model. */
export interface SeenInPhoto {
  room: string;
  visible: readonly string[];
}

const overlaps = (a: string, b: string) => a.includes(b) || b.includes(a);

/**
 * How the offline model describes a thing it cannot see: what kind of thing it is, and where the
 * user mentioned it. Null when it knows neither: then it cannot say which thing it means.
 */
export function describeItem(item: string, photo: SeenInPhoto | null): string | null {
  const name = item.toLowerCase();
  const kind = KINDS.find(([re]) => re.test(name))?.[1];
  const match = photo?.visible.find((v) => overlaps(v.toLowerCase(), name));
  const others = photo?.visible.filter((v) => v !== match) ?? [];
  const where =
    match && photo
      ? `You mentioned ${match} with your photo of the ${photo.room}` +
        (others.length ? `, along with ${others.join(', ')}.` : '.')
      : '';
  if (!kind && !where) return null;
  return [kind ? `${kind}.` : '', where].filter(Boolean).join(' ');
}
