import { toJson, type Photo } from '@sweatpants/domain';
import type { Operation } from 'effection';
import {
  imageOf,
  type ContentBlock,
  type ToolUseBlock,
  log,
  sample,
  prompt,
  createTool,
  ToolSuccess,
} from '@sweatpants/agent-runtime';
import {
  CONTINUE_EXTRACT,
  ExtractSchema,
  GroupingSchema,
  parseGrouping,
  parseExtract,
  parsePhotoAnalysis,
  parseProposal,
  PhotoAnalysisSchema,
  type Extract,
  type PhotoAnalysis,
  type Proposal,
} from './observation';
import { extractionGuide } from './extraction-guide';
import { extractFromWords } from './offline-text';
import { photoFromWords } from './offline-guesses';
import {
  decidedItemsOf,
  functionOf,
  knownNameOf,
  nextSeenOf,
  pendingItemOf,
  phaseOf,
  type NonEmpty,
  type SessionState,
} from './session-state';
import type { Assignment, CategoryName, ItemName } from './tidying-types';
import { extractJson, photoJson, recordEvent } from './tidying-events';

/**
 * OBSERVE and ORIENT (seed 000): the model looks at the photos (vision) and reads the user's
 * words, each answering through a tool whose input schema is the structured output. A reply
 * that does not fit is the seed's parse failure: logged, and the turn goes on without it.
 */

/** The user's turn as the loop sees it. */
export interface UserInput {
  text: string;
  photos: readonly Photo[];
}

export const PHOTO_TOOL = 'record_photo_analysis';
export const EXTRACT_TOOL = 'record_extraction';
export const GROUP_TOOL = 'record_categories';

const photoTool = createTool(PHOTO_TOOL)
  .description('Record what the photos show. Call it exactly once.')
  .input(PhotoAnalysisSchema)
  .execute(function* (value) {
    return ToolSuccess(toJson(value));
  });

const extractTool = createTool(EXTRACT_TOOL)
  .description("Record the facts in the user's message. Call it exactly once.")
  .input(ExtractSchema)
  .execute(function* (value) {
    return ToolSuccess(toJson(value));
  });

const groupTool = createTool(GROUP_TOOL)
  .description('Record the groups the unsure pile splits into. Call it exactly once.')
  .input(GroupingSchema)
  .execute(function* (value) {
    return ToolSuccess(toJson(value));
  });

/**
 * A structured call is forced (`toolChoice`), and a model that still answers otherwise (in words,
 * or with input that does not fit) is asked once more; after that the offline rules read the
 * message, so the session goes on with what they find. A call that may speak first (`speaks`: the
 * reading of a person's words, whose first sentence streams to them while the card is readied) is
 * asked unforced the first time, since a forced tool call carries no words; the retry is forced.
 */
const STRUCTURED_ATTEMPTS = 2;

/**
 * Calls the model until it answers `tool` with input that `parse` takes, at most
 * STRUCTURED_ATTEMPTS times; null when it never did, or the call failed (the client has retried
 * what can be retried). Answers with the node that recorded the call that succeeded.
 */
function* structured<T>(
  request: Parameters<typeof sample>[0],
  tool: string,
  parse: (input: unknown) => T | null,
  { speaks = false }: { speaks?: boolean } = {},
): Operation<{ value: T; nodeId: string } | null> {
  for (let attempt = 1; attempt <= STRUCTURED_ATTEMPTS; attempt++) {
    const forced = !speaks || attempt > 1;
    const sampled = yield* sample(forced ? { ...request, toolChoice: tool } : request);
    if (!sampled.ok) {
      yield* log('warn', `${tool} failed; the offline rules read it instead`, { code: sampled.error.code });
      return null;
    }
    const value = parse(toolInput(sampled.value.reply.content, tool));
    if (value !== null) return { value, nodeId: sampled.value.nodeId };
    yield* log('warn', `${tool} was answered otherwise`, { attempt });
  }
  return null;
}

/** What the photo analysis is told of a photo sent with no words. */
export const NO_WORDS = '(a photo)';

/**
 * Analyses the photos of a message; null without photos. When the model gives no analysis, the
 * offline rules guess one from the words sent with the photo, so the session has one (and the
 * photo is not sent again on every later call for want of it).
 */
export function* analyzePhotos(input: UserInput): Operation<PhotoAnalysis | null> {
  if (input.photos.length === 0) return null;
  const images: ContentBlock[] = input.photos.map(imageOf);
  const sampled = yield* structured(
    {
      system: prompt`
        You look at photos of a space someone wants to tidy. Say what kind of room it is, how buried
        it is (buried, cluttered, moderate, clear), what is visible, what the mess stops them doing,
        and the best first thing to pick up. Answer only by calling ${PHOTO_TOOL}.`,
      messages: [{ role: 'user', content: [...images, { type: 'text', text: input.text || NO_WORDS }] }],
      tools: [photoTool.spec],
    },
    PHOTO_TOOL,
    parsePhotoAnalysis,
  );
  const analysis = sampled?.value ?? parsePhotoAnalysis(photoFromWords(input.text));
  if (!analysis) return null;
  yield* recordEvent({
    type: 'photo-analyzed',
    summary: `${analysis.roomType}, ${analysis.chaosLevel}${analysis.firstTarget ? `; start with the ${analysis.firstTarget}` : ''}`,
    analysis: photoJson(analysis),
    nodeId: sampled?.nodeId ?? null,
  });
  return analysis;
}

/**
 * What the person's words say (intent, item, choice, place, function, anchors, anxiety), and,
 * when they name an item, where the model proposes it goes: one call reads the words and readies
 * the item's card, so a named item costs one round trip (the proposal is used only when the
 * decided action is to ask about that item).
 */
export interface Reading {
  extract: Extract;
  /** the proposal, with the node of the call that made it */
  proposal: (Proposal & { readBy: string }) | null;
}

/** Reads the user's words (seed 000's extraction), with the proposal for a named item. */
export function* extractFromInput(
  state: SessionState,
  photo: PhotoAnalysis | null,
  input: UserInput,
  lastReply: string | null,
): Operation<Reading> {
  // what the photos showed that is still to come: "go" is about it
  const nextSeen = nextSeenOf(state);
  // named again, these get no proposal: the coach says where they went
  const decided = decidedItemsOf(state);
  // the thing the coach is asking about: "the rest" is what is left of it
  const inQuestion = pendingItemOf(state);
  const sampled = yield* structured(
    {
      system: extractionGuide(EXTRACT_TOOL),
      // what changes from message to message, after the cached instructions
      notes: prompt`
        Phase: ${phaseOf(state)}. What the space is for: ${functionOf(state) ?? 'not known yet'}.
        ${photo ? `The photo shows a ${photo.chaosLevel} ${photo.roomType}.` : ''}
        ${lastReply ? `The coach last said: "${lastReply}"` : ''}
        ${inQuestion ? `The thing in question: "${inQuestion}"` : ''}
        ${nextSeen ? `The coach's next thing: "${nextSeen}"` : ''}
        ${decided.length > 0 ? `Sorted already: ${decided.map((item) => JSON.stringify(item)).join(', ')}` : ''}`,
      messages: [{ role: 'user', content: [{ type: 'text', text: input.text || '(no words)' }] }],
      tools: [extractTool.spec],
    },
    EXTRACT_TOOL,
    (value) => {
      const extract = parseExtract(value);
      return extract ? { extract, proposal: parseProposal(value) } : null;
    },
    { speaks: true },
  );
  const read =
    sampled?.value.extract ??
    parseExtract(extractFromWords(input.text, phaseOf(state), lastReply, inQuestion ?? nextSeen)) ??
    CONTINUE_EXTRACT;
  // "the mug" is the coffee mug named before: one thing, one name, one pile
  const known = (name: ItemName) => knownNameOf(state, name);
  const item = read.item && known(read.item);
  const extract = {
    ...read,
    item,
    also: read.also.map(known).filter((thing) => thing !== item),
    alsoDecided: read.alsoDecided.map((d) => ({ ...d, item: known(d.item) })).filter((d) => d.item !== item),
  };
  const nodeId = sampled?.nodeId ?? null;
  yield* recordEvent({
    type: 'situation-classified',
    summary: extract.item ? `${extract.intent}: ${extract.item}` : extract.intent,
    extract: extractJson(extract),
    nodeId,
  });
  const proposal = sampled?.value.proposal;
  return { extract, proposal: sampled && proposal ? { ...proposal, readBy: sampled.nodeId } : null };
}

/**
 * Seed 000's emergent categories: the model groups the unsure pile by what the person's own items
 * have in common ("letters to answer", "cables", "gifts"), naming each group in plain words; the
 * offline rules group by kind. Null when no grouping came (the split goes by kind then).
 */
export function* groupUnsurePile(
  items: readonly ItemName[],
): Operation<{ categories: NonEmpty<CategoryName>; assignment: Assignment } | null> {
  if (items.length === 0) return null;
  const sampled = yield* structured(
    {
      system: prompt`
        Someone tidying a space has a pile of things they were unsure about. Split it into two to
        four smaller piles by what the things have in common, each named in a few plain words drawn
        from the things themselves ("letters to answer", "cables", "gifts from family"), so each
        pile is easy to decide in one go. Every thing goes in exactly one pile, named as listed.
        Answer only by calling ${GROUP_TOOL}.`,
      messages: [{ role: 'user', content: [{ type: 'text', text: items.map((i) => `- ${i}`).join('\n') }] }],
      tools: [groupTool.spec],
    },
    GROUP_TOOL,
    (value) => parseGrouping(value, items),
  );
  return sampled?.value ?? null;
}

function toolInput(content: readonly (ContentBlock | ToolUseBlock)[], name: string): unknown {
  return content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.name === name)?.input;
}
