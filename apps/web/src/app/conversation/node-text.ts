import type { TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';
import { isAgentStep, isSideCall, stepWords } from './agent-step-words';

/**
 * The words a node says, for previews and announcements; '' when it says none. A message the
 * agent wrote in the user's place and a side call of the runtime's say nothing to the user.
 */
export function nodeText(node: TreeNode): string {
  const payload: unknown = node.payload;
  if (!isRecord(payload)) return '';
  switch (node.kind) {
    case 'user':
      if (isAgentStep(node)) return '';
      return typeof payload['text'] === 'string' ? payload['text'] : '';
    case 'assistant':
      if (isSideCall(node)) return '';
      return typeof payload['text'] === 'string' ? payload['text'] : '';
    case 'summary':
      return typeof payload['text'] === 'string' ? payload['text'] : '';
    case 'elicit':
    case 'notify':
      return typeof payload['message'] === 'string' ? payload['message'] : '';
    case 'response':
      return `answer: ${String(payload['action'])}`;
    case 'mode':
    case 'tool_call':
    case 'tool_result':
    case 'event':
      return stepWords(node).title;
    case 'cancel':
      return 'cancelled';
    case 'root':
      return 'start';
  }
}

/** A one-line preview: the text, shortened; an agent's step in words when it says nothing. */
export function nodePreview(node: TreeNode, max = 80): string {
  const said = nodeText(node) || (isSideCall(node) ? 'a side call' : stepWords(node).title);
  const text = said.replace(/\s+/g, ' ').trim() || node.kind;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
