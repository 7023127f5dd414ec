import { NodePayloadSchemas, type Json, type TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { answerSummary } from '../elicit/answer-summary';
import { isAgentStep, stepWords, toolImagesOf, words } from './agent-step-words';

/** What the chat shows for one node, decided once per node so the template only lays it out. */
export type NodeView =
  /** `photos`: stored blobs, shown by BlobImageComponent (an <img> cannot send the token itself) */
  | { kind: 'user'; text: string; photos: { sha256: string; alt: string }[] }
  | { kind: 'assistant'; text: string }
  /** the images a tool got (an MCP server's), on the agent's side, with the tool that got them */
  | { kind: 'images'; from: string; photos: { sha256: string; alt: string }[] }
  /**
   * `offScript`: the user answered in their own words, shown as their message right after it;
   * `answer` is then what the agent read them as, when it took them as the answer
   */
  | { kind: 'question'; message: string; answer: string | null; offScript: boolean }
  | { kind: 'answer'; text: string }
  | { kind: 'progress'; message: string; value: number | null; max: number | null }
  /** one of the agent's steps (an event, a tool call, a mode switch…), in words */
  | { kind: 'step'; title: string; detail: string }
  | { kind: 'summary'; text: string; count: number; fromId: string; toId: string }
  | { kind: 'divider'; text: string }
  | { kind: 'quiet'; text: string }
  /** the root: the chat's start, where the switch for the agent's steps is */
  | { kind: 'start' };

/** A tool's images in words, where they are not shown: "An image from “get tiny image”". */
export function imagesFrom(count: number, from: string): string {
  return `${count === 1 ? 'An image' : `${count} images`} from ${from}`;
}

/** Words the person typed at a question instead of a tap: an answer with action `other`. */
export function isTypedAnswer(node: TreeNode | undefined): node is TreeNode<'response'> {
  return node?.kind === 'response' && isRecord(node.payload) && node.payload['action'] === 'other';
}

/** Builds the view of `node`; `answer` is the response node to it, for an elicit. */
export function nodeView(node: TreeNode, answer: TreeNode | null): NodeView {
  // Events, tool calls, mode switches, the agent's notes to itself, replies without words.
  if (isAgentStep(node)) return { kind: 'step', ...stepWords(node) };
  switch (node.kind) {
    case 'user': {
      const p = NodePayloadSchemas.user.safeParse(node.payload);
      if (!p.success) return { kind: 'user', text: '', photos: [] };
      const photos = (p.data.photos ?? []).map((photo, i) => ({
        sha256: photo.sha256,
        alt: `Photo ${i + 1} you sent`,
      }));
      return { kind: 'user', text: p.data.text, photos };
    }
    case 'assistant': {
      const p = NodePayloadSchemas.assistant.safeParse(node.payload);
      return { kind: 'assistant', text: p.success ? p.data.text : '' };
    }
    case 'elicit': {
      const p = NodePayloadSchemas.elicit.safeParse(node.payload);
      if (!p.success) return { kind: 'quiet', text: 'a question' };
      const a = answer ? NodePayloadSchemas.response.safeParse(answer.payload) : null;
      if (a?.success && a.data.action === 'other') {
        // what the agent took the typed words to answer, when it did (see readFromWords)
        const readAs = a.data['readAs'];
        const read =
          readAs === undefined ? null : answerSummary(p.data, 'accept', readAs as Json, 'from-words');
        return { kind: 'question', message: p.data.message, answer: read, offScript: true };
      }
      const summary = a?.success
        ? answerSummary(
            p.data,
            a.data.action,
            a.data.content,
            a.data['timedOut'] === true ? 'timed-out' : 'by-hand',
          )
        : null;
      return { kind: 'question', message: p.data.message, answer: summary, offScript: false };
    }
    case 'response': {
      const p = NodePayloadSchemas.response.safeParse(node.payload);
      if (!p.success) return { kind: 'quiet', text: 'an answer' };
      // An accepted chat answer is a message: {text, photos?}, shown as the user's bubble; so are
      // words typed while a question waited (action `other`), as the user typed them.
      const asMessage =
        p.data.action === 'accept' || p.data.action === 'other'
          ? NodePayloadSchemas.user.safeParse(p.data.content)
          : null;
      if (asMessage?.success) return nodeView({ ...node, kind: 'user', payload: asMessage.data }, null);
      const text = answerSummary({ type: '', message: '', payload: {} }, p.data.action, p.data.content);
      const said =
        isRecord(p.data.content) && typeof p.data.content['text'] === 'string'
          ? p.data.content['text']
          : text;
      return { kind: 'answer', text: said };
    }
    case 'notify': {
      const p = NodePayloadSchemas.notify.safeParse(node.payload);
      if (!p.success) return { kind: 'quiet', text: 'progress' };
      return {
        kind: 'progress',
        message: p.data.message,
        value: p.data.progress ?? null,
        max: p.data.total ?? null,
      };
    }
    case 'summary': {
      const p = NodePayloadSchemas.summary.safeParse(node.payload);
      if (!p.success) return { kind: 'quiet', text: 'a summary' };
      return { kind: 'summary', text: p.data.text, ...p.data.covers };
    }
    case 'tool_result': {
      const name = isRecord(node.payload) ? node.payload['name'] : undefined;
      const from = typeof name === 'string' ? `“${words(name)}”` : 'a tool';
      const photos = toolImagesOf(node).map((photo, i, all) => ({
        sha256: photo.sha256,
        alt: all.length > 1 ? `Image ${i + 1} from ${from}` : `Image from ${from}`,
      }));
      return { kind: 'images', from, photos };
    }
    case 'cancel':
      return { kind: 'divider', text: 'stopped' };
    case 'root':
      return { kind: 'start' };
    default:
      return { kind: 'step', ...stepWords(node) };
  }
}
