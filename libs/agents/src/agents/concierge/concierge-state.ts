import {
  ConciergeModeSchema,
  type ConciergeState,
  type Json,
  type StateReducer,
  type TreeNode,
} from '@sweatpants/domain';
import type { ToolResultPayload } from '../../runtime';

export const INITIAL_CONCIERGE_STATE: ConciergeState = {
  mode: 'assistant',
  reviewing: [],
  lastChoice: null,
  updated: 0,
};

/**
 * The concierge's state as a fold of the path (DESIGN.md): the mode from `mode` nodes, the items
 * on the table from present_options calls, the user's last pick and the count of updated
 * activities from the tools' results. Rewinding the conversation rewinds all of it.
 */
export const conciergeState: StateReducer<ConciergeState> = {
  name: 'concierge',
  version: 1,
  initial: INITIAL_CONCIERGE_STATE,
  apply: (state, node) => {
    switch (node.kind) {
      case 'mode': {
        const mode = ConciergeModeSchema.safeParse(node.payload['to']);
        return mode.success ? { ...state, mode: mode.data, reviewing: [] } : state;
      }
      case 'tool_call':
        if (node.payload['name'] !== 'present_options') return state;
        return { ...state, reviewing: stringsOf(objectOf(node.payload['input'] as Json)['activity_ids']) };
      case 'tool_result':
        return applyResult(state, node);
      default:
        return state;
    }
  },
};

function applyResult(state: ConciergeState, node: TreeNode): ConciergeState {
  const { name, outcome } = node.payload as unknown as ToolResultPayload;
  if (outcome.kind !== 'success') return state;
  const value = objectOf(outcome.value);
  if (name === 'present_options' && typeof value['choice'] === 'string' && value['choice'] !== '') {
    return {
      ...state,
      lastChoice: {
        optionId: value['choice'],
        label: typeof value['label'] === 'string' ? value['label'] : '',
        activityIds: stringsOf(value['activity_ids']),
      },
    };
  }
  if (name === 'update_activities') {
    const updated = new Set(stringsOf(value['activity_ids']));
    return {
      ...state,
      updated: state.updated + (typeof value['updated_count'] === 'number' ? value['updated_count'] : 0),
      reviewing: state.reviewing.filter((id) => !updated.has(id)),
    };
  }
  return state;
}

function objectOf(value: Json | undefined): { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {};
}

function stringsOf(value: Json | undefined): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
