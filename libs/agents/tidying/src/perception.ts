import type { Json, Photo } from '@sweatpants/domain';
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
  parseExtract,
  parsePhotoAnalysis,
  PhotoAnalysisSchema,
  type Extract,
  type PhotoAnalysis,
} from './observation';
import { functionOf, phaseOf, type SessionState } from './session-state';
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

const photoTool = createTool(PHOTO_TOOL)
  .description('Record what the photos show. Call it exactly once.')
  .input(PhotoAnalysisSchema)
  .execute(function* (value) {
    return ToolSuccess(value as Json);
  });

const extractTool = createTool(EXTRACT_TOOL)
  .description("Record the facts in the user's message. Call it exactly once.")
  .input(ExtractSchema)
  .execute(function* (value) {
    return ToolSuccess(value as Json);
  });

/** Analyses the photos of a message; null without photos, or when the analysis failed. */
export function* analyzePhotos(input: UserInput): Operation<PhotoAnalysis | null> {
  if (input.photos.length === 0) return null;
  const images: ContentBlock[] = input.photos.map(imageOf);
  const sampled = yield* sample({
    system: prompt`
      You look at photos of a space someone wants to tidy. Say what kind of room it is, how buried
      it is (buried, cluttered, moderate, clear), what is visible, what the mess stops them doing,
      and the best first thing to pick up. Answer only by calling ${PHOTO_TOOL}.`,
    messages: [{ role: 'user', content: [...images, { type: 'text', text: input.text || '(a photo)' }] }],
    tools: [photoTool.spec],
  });
  if (!sampled.ok) {
    yield* log('warn', 'photo analysis failed; going on without it', { code: sampled.error.code });
    return null;
  }
  const analysis = parsePhotoAnalysis(toolInput(sampled.value.reply.content, PHOTO_TOOL));
  if (!analysis) {
    yield* log('warn', 'photo analysis did not parse; going on without it');
    return null;
  }
  yield* recordEvent({
    type: 'photo-analyzed',
    summary: `${analysis.roomType}, ${analysis.chaosLevel}${analysis.firstTarget ? `; start with the ${analysis.firstTarget}` : ''}`,
    analysis: photoJson(analysis),
    nodeId: sampled.value.nodeId,
  });
  return analysis;
}

/** Extracts intent, item, choice, place, function, anchors and anxiety from the user's words. */
export function* extractFromInput(
  state: SessionState,
  photo: PhotoAnalysis | null,
  input: UserInput,
  lastReply: string | null,
): Operation<Extract> {
  const sampled = yield* sample({
    system: prompt`
      You read one message from someone tidying a space, and record its facts by calling
      ${EXTRACT_TOOL}. Never invent facts the message does not state.`,
    // what changes from message to message, after the cached instructions
    notes: prompt`
      Phase: ${phaseOf(state)}. What the space is for: ${functionOf(state) ?? 'not known yet'}.
      ${photo ? `The photo shows a ${photo.chaosLevel} ${photo.roomType}.` : ''}
      ${lastReply ? `The coach last said: "${lastReply}"` : ''}`,
    messages: [{ role: 'user', content: [{ type: 'text', text: input.text || '(no words)' }] }],
    tools: [extractTool.spec],
  });
  let extract: Extract | null = null;
  let nodeId: string | null = null;
  if (sampled.ok) {
    nodeId = sampled.value.nodeId;
    extract = parseExtract(toolInput(sampled.value.reply.content, EXTRACT_TOOL));
  }
  if (!extract) yield* log('warn', 'extraction failed; going on as "continue"');
  const used = extract ?? CONTINUE_EXTRACT;
  yield* recordEvent({
    type: 'situation-classified',
    summary: used.item ? `${used.intent}: ${used.item}` : used.intent,
    extract: extractJson(used),
    nodeId,
  });
  return used;
}

function toolInput(content: readonly (ContentBlock | ToolUseBlock)[], name: string): unknown {
  return content.find((b): b is ToolUseBlock => b.type === 'tool_use' && b.name === name)?.input;
}
