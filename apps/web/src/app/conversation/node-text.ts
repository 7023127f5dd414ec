import type { TreeNode } from '@sweatpants/domain';

import { isRecord } from '../core/json';

/** The words a node says, for previews and announcements; '' when it says none. */
export function nodeText(node: TreeNode): string {
  const payload: unknown = node.payload;
  if (!isRecord(payload)) return '';
  switch (node.kind) {
    case 'user':
    case 'assistant':
    case 'summary':
      return typeof payload['text'] === 'string' ? payload['text'] : '';
    case 'elicit':
    case 'notify':
      return typeof payload['message'] === 'string' ? payload['message'] : '';
    case 'mode':
      return `mode: ${String(payload['from'] ?? '–')} → ${String(payload['to'])}`;
    case 'response':
      return `answer: ${String(payload['action'])}`;
    case 'tool_call':
      return `tool: ${typeof payload['name'] === 'string' ? payload['name'] : 'call'}`;
    case 'tool_result':
      return 'tool result';
    case 'cancel':
      return 'cancelled';
    case 'root':
      return 'start';
    case 'event':
      return typeof payload['type'] === 'string' ? payload['type'] : 'event';
  }
}

/** A one-line preview: the text, shortened. */
export function nodePreview(node: TreeNode, max = 80): string {
  const text = nodeText(node).replace(/\s+/g, ' ').trim() || node.kind;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
