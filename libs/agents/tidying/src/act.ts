import type { Json, TreeNode } from '@sweatpants/domain';
import type { Operation } from 'effection';
import {
  type ModelMessage,
  type TextBlock,
  type ToolUseBlock,
  modeOf,
  type AgentDefinition,
  Run,
  historyOf,
  modeStateOf,
  sample,
  prompt,
  dispatch,
  type ModeSwitch,
  type TurnEnd,
} from '@sweatpants/agent-runtime';
import { proposeDisposition } from './disposition-tools';
import type { PhotoAnalysis, Proposal } from './observation';
import {
  anchorsOf,
  currentCategoryOf,
  emergentCategoriesOf,
  functionOf,
  isEnded,
  itemsProcessedOf,
  lastAnxietyOf,
  nextSeenOf,
  phaseOf,
  stillToGoOf,
  type SessionState,
} from './session-state';
import { recapOf } from './session-recap';
import { CARD_WAITING, cannedResponse, directive, landedInWords, type Action } from './tidying-action';
import { recordEvent, tidyingEventOf } from './tidying-events';

const MAX_STEPS = 8;

/**
 * ACT (seed 000's actResponse): a canned reply where the seed has one, otherwise the model in the
 * current mode, with the session as context, the action as its instruction and the mode's tools.
 * Tool calls run through the runtime's dispatcher; a transition tool ends the turn with its mode
 * switch and synthetic message. Whatever the user is told is recorded as `response-generated`.
 * `waiting`: said aside while a card waits (about `about`), which comes back after the reply
 * (./tidying-action).
 */
export function* act(
  agent: AgentDefinition,
  state: SessionState,
  action: Action,
  photo: PhotoAnalysis | null,
  userText: string,
  waiting: CardWaiting | null = null,
): Operation<TurnEnd> {
  const canned = cannedResponse(action, nextSeenOf(state), waiting !== null, state.seen.length === 0);
  if (canned !== null) {
    yield* tell(canned, action.tag);
    return { kind: 'done' };
  }
  const run = yield* Run.expect();
  const said: string[] = [];
  for (let step = 0; step < (agent.maxSteps ?? MAX_STEPS); step++) {
    const path = run.journal.path();
    const { mode: modeName, data } = modeStateOf(agent, path);
    const mode = modeOf(agent, modeName);
    const tools = mode.tools(data);
    const sampled = yield* sample({
      // The mode's voice and tools stay put between calls and are cached; the session and the
      // turn's instruction change every call and go after the conversation.
      system: mode.render(data),
      notes: [contextOf(state, photo, userText), instruction(action, waiting)].join('\n\n'),
      messages: photosAsAnalysed(historyOf(conversational(path)), photo, userText),
      tools: tools.map((t) => t.spec),
    });
    if (!sampled.ok) {
      const text = agent.fallbackReply(sampled.error);
      yield* say(text, { fallback: sampled.error.code });
      yield* recordEvent({ type: 'response-generated', text });
      return { kind: 'failed', code: sampled.error.code };
    }
    const content = sampled.value.reply.content;
    said.push(...content.filter((b): b is TextBlock => b.type === 'text').map((b) => b.text));
    const uses = content.filter((b): b is ToolUseBlock => b.type === 'tool_use');
    const settled: string[] = [];
    for (const use of uses) {
      const outcome = yield* dispatch(tools, use);
      if (outcome.kind === 'break') {
        yield* recordEvent({ type: 'response-generated', text: said.join(' ').trim() });
        yield* switchMode(agent, modeName, outcome.next, outcome.text);
        return { kind: 'break', next: outcome.next };
      }
      if (outcome.kind === 'success' && outcome.reply !== undefined) settled.push(outcome.reply);
    }
    if (uses.some((use) => endedAside(run.journal.path(), use.id))) {
      yield* recordEvent({ type: 'response-generated', text: said.join(' ').trim() });
      return { kind: 'done' };
    }
    // Every call's result settled the turn (a card answered with a tap): the coach says so itself,
    // and the model is not asked again.
    if (uses.length > 0 && settled.length === uses.length) {
      const text = settled.join(' ');
      yield* say(text, { settledBy: 'tool' });
      yield* recordEvent({ type: 'response-generated', text: [...said, text].join(' ').trim() });
      return { kind: 'done' };
    }
    if (uses.length === 0) {
      yield* recordEvent({ type: 'response-generated', text: said.join(' ').trim() });
      return { kind: 'done' };
    }
  }
  const text = 'I stopped there: that took more steps than one reply may. Tell me the next thing you see.';
  yield* say(text, { fallback: 'max_steps' });
  yield* recordEvent({ type: 'response-generated', text });
  return { kind: 'failed', code: 'max_steps' };
}

/** A card to ask at once: the item, and where the model proposed it goes when it read the words. */
export type ProposalFor = Proposal & {
  item: string;
  /** the node of the call that read the words and made the proposal */
  readBy: string;
};

/**
 * Asks the item's card with the proposal that came with the reading of the words, so a named item costs one model call, and says where the item landed once
 * answered (the tool's settling words). The call is recorded as the coach's own, as any tool call
 * is. Null when the model's proposal does not fit the tool: the act call proposes instead.
 */
export function* proposeAtOnce(proposal: ProposalFor): Operation<TurnEnd | null> {
  const input: Json = {
    item: proposal.item,
    choices: proposal.choices,
    ...(proposal.reason ? { reason: proposal.reason } : {}),
  };
  // the id follows from the reading's node, so a rebuilt runner finds the same call in the journal
  const use: ToolUseBlock = {
    type: 'tool_use',
    id: `read-${proposal.readBy}`,
    name: proposeDisposition.name,
    input,
  };
  const outcome = yield* dispatch([proposeDisposition], use);
  if (outcome.kind === 'error') return null;
  const run = yield* Run.expect();
  if (endedAside(run.journal.path(), use.id)) return { kind: 'done' };
  const text =
    outcome.kind === 'success' && outcome.reply !== undefined
      ? outcome.reply
      : `No problem, we leave the ${proposal.item} for later. What did you pick up next?`;
  yield* say(text, { settledBy: 'tool' });
  yield* recordEvent({ type: 'response-generated', text });
  return { kind: 'done' };
}

/**
 * Whether words said aside while the call `toolUseId` waited on its card ended the session ("I'm
 * done" typed at the card): its side quest took them as input and ended it, the card was set aside
 * (see tidying-turn), and the recap said there is the last word. A session the call itself ended
 * (confirm_done answered "done") is not: the model sums it up after the result.
 */
function endedAside(path: readonly TreeNode[], toolUseId: string): boolean {
  const call = path.findLastIndex((n) => n.kind === 'tool_call' && n.payload['toolUseId'] === toolUseId);
  if (call < 0) return false;
  let heard = false;
  for (const node of path.slice(call + 1)) {
    const event = tidyingEventOf(node);
    if (event?.type === 'user-input-received') heard = true;
    if (heard && event?.type === 'session-ended') return true;
  }
  return false;
}

/** Words that ask about the photo itself, when its image should go to the model again. */
export const ABOUT_THE_PHOTO = /\b(photos?|pictures?|pics?|images?)\b/i;

/**
 * A photo is looked at once (seed 000's analyzePhotos): later calls carry its analysis in the
 * notes, and the image stands as a line in the history, so a conversation does not pay for the
 * image again on every call. It goes again when the person asks about the photo itself, or when
 * no analysis of it exists to carry.
 */
export function photosAsAnalysed(
  messages: ModelMessage[],
  photo: PhotoAnalysis | null,
  userText: string,
): ModelMessage[] {
  if (photo === null || ABOUT_THE_PHOTO.test(userText)) return messages;
  return messages.map((message) =>
    message.content.some((b) => b.type === 'image')
      ? {
          ...message,
          content: message.content.map((b) => (b.type === 'image' ? PHOTO_SEEN : b)),
        }
      : message,
  );
}

const PHOTO_SEEN: TextBlock = {
  type: 'text',
  text: '(a photo, already looked at: see Photo in the session notes)',
};

/** The card words were said aside at, and the thing it asks about (none for the space's purpose). */
export interface CardWaiting {
  about: string | null;
}

/**
 * The line that tells the model this turn's action (the offline rules read it too). `waiting`: the
 * words were said aside, and the card they were said at comes back below the reply; the thing it
 * asks about is named, so "what should I do with them?" is about it.
 */
export function instruction(action: Action, waiting: CardWaiting | null = null): string {
  const details = [
    'item' in action ? `Item: ${action.item}` : '',
    'location' in action ? `Location: ${action.location}` : '',
    'categories' in action ? `Categories: ${action.categories.join(', ')}` : '',
    'note' in action ? `Note: ${action.note}` : '',
    'reopened' in action ? 'Taken back: yes' : '',
    'alsoSorted' in action && action.alsoSorted?.length
      ? `Also sorted: ${action.alsoSorted.map(landedInWords).join(' ')}`
      : '',
    waiting
      ? `${CARD_WAITING}: yes${waiting.about ? `, about the ${waiting.about}` : ''} (it comes back below your reply, so ask for nothing next)`
      : '',
  ].filter(Boolean);
  return [`This turn: ${directive(action)}`, `Action: ${action.tag}`, ...details].join('\n');
}

/** The session as the prompt shows it (seed 000's TidyingContext). */
function contextOf(state: SessionState, photo: PhotoAnalysis | null, userText: string): string {
  const cats = [...emergentCategoriesOf(state)].filter(([, items]) => items.length > 0).map(([c]) => c);
  const going = [...state.destinations].map(([item, where]) => `${item} → ${where}`);
  const kept = [...state.spots].map(([item, where]) => `${item} → ${where}`);
  const toGo = stillToGoOf(state);
  return prompt`
    Session
    Phase: ${phaseOf(state)}
    What the space is for: ${functionOf(state) ?? 'not known yet'}
    Staying for sure: ${anchorsOf(state).join(', ') || 'nothing named yet'}
    Piles: ${state.piles.belongs.length} belong, ${state.piles.out.length} out, ${state.piles.unsure.length} unsure
    ${going.length ? `Going out of this space: ${going.join(', ')}` : ''}
    ${kept.length ? `Kept in this space, at their spot: ${kept.join(', ')}` : ''}
    Items processed: ${itemsProcessedOf(state)}
    ${isEnded(state) ? `Recap: ${recapOf(state)}` : ''}
    ${cats.length ? `Emergent categories: ${cats.join(', ')}; current: ${currentCategoryOf(state) ?? 'none'}` : ''}
    ${lastAnxietyOf(state) ? `Avoid for now (it made them anxious): ${lastAnxietyOf(state)}` : ''}
    ${toGo.length ? `Still to go: ${toGo.join(', ')}` : ''}
    ${photo ? `Photo: a ${photo.chaosLevel} ${photo.roomType}; visible: ${photo.visibleItems.join(', ') || 'nothing named'}${photo.firstTarget ? `; first target: ${photo.firstTarget}` : ''}${photo.blockedFunction ? `; blocked: ${photo.blockedFunction}` : ''}` : ''}
    ${userText ? `They just said: "${userText}"` : ''}`;
}

/**
 * The nodes the model converses over: the photo analysis is the loop's own. A reading of the
 * person's words stays, for what it said to them (its tool call, never answered, is left out of
 * the history the model reads).
 */
export function conversational(path: readonly TreeNode[]): readonly TreeNode[] {
  const internal = new Set<string>();
  for (const node of path) {
    const event = tidyingEventOf(node);
    if (event?.type === 'photo-analyzed' && event.nodeId) internal.add(event.nodeId);
  }
  return internal.size === 0 ? path : path.filter((n) => !internal.has(n.id));
}

/** A canned line of the loop's own, said as the coach's response (`tag` names what it answers). */
export function* tell(text: string, tag: string): Operation<void> {
  yield* say(text, { canned: tag });
  yield* recordEvent({ type: 'response-generated', text });
}

/** A reply of the loop's own (canned, fallback), recorded as the agent's. */
function* say(text: string, extra: { [key: string]: Json }): Operation<void> {
  const run = yield* Run.expect();
  if (run.journal.take('assistant', 'a canned reply')) return;
  yield* run.journal.append([{ kind: 'assistant', payload: { text, ...extra }, authorId: run.authorId }]);
}

/**
 * Writes a mode switch: with a synthetic message when a transition tool ended the turn (seed
 * 001), alone when a decided turn moves to the mode its phase calls for.
 */
export function* switchMode(
  agent: AgentDefinition,
  from: string,
  next: ModeSwitch,
  synthetic?: string,
): Operation<void> {
  const run = yield* Run.expect();
  // Fails loudly on a mode that does not exist or data that does not fit it: a bug in the caller.
  modeOf(agent, next.mode).parseData(next.data);
  if (run.journal.take('mode', `the switch to ${next.mode}`)) {
    if (synthetic !== undefined) run.journal.take('user', 'the synthetic message');
    return;
  }
  yield* run.journal.append([
    { kind: 'mode', payload: { from, to: next.mode, data: next.data }, authorId: run.authorId },
    ...(synthetic !== undefined
      ? [{ kind: 'user' as const, payload: { text: synthetic, synthetic: true }, authorId: run.authorId }]
      : []),
  ]);
}
