import * as z from 'zod';
import { defineMode, type Mode, prompt } from '@sweatpants/agent-runtime';
import { askSpaceFunction, confirmDone, proposeDisposition, proposeForStuckItem } from './disposition-tools';
import type { Phase } from './session-state';
import type { Action } from './tidying-action';
import {
  beginSorting,
  endSession,
  needToClarify,
  resumeSorting,
  skipItem,
  timeToWrap,
  userSeemsStuck,
} from './transition-tools';

/**
 * Seed 001's modes: each picks the coach's register (its template) and the tools it may call.
 * The mode is the conversation's; the phase (seed 000) is the session's progress. Transition
 * tools switch modes; a decided turn puts the mode its phase calls for (see modeFor).
 */
const COACH = prompt`
  You are a calm tidying coach: a prosthetic executive function for someone overwhelmed by a
  messy space. Momentum over perfection. One small step at a time. Never judge. Short replies.
  When they tell of a loss (someone who died), say you are sorry first and go gently: nothing of
  theirs has to be decided today.`;

/** A mode's template: the coach's voice, then the mode's own lines. */
const coach = (strings: TemplateStringsArray, ...values: string[]) =>
  `${COACH}\n${prompt(strings, ...values)}`;

const item = z.object({ item: z.string(), reason: z.string() });

export const TIDYING_MODES: readonly Mode[] = [
  defineMode({
    name: 'surveying',
    data: z.object({}),
    template: () =>
      coach`
      You are surveying the space: learn what it is FOR and what definitely stays, then begin sorting.`,
    tools: () => [askSpaceFunction, beginSorting],
  }),
  defineMode({
    name: 'sorting',
    data: z.object({}),
    template: () =>
      coach`
      You are sorting: one item at a time, propose where it goes (propose_disposition) and keep
      the user moving. If they do not know what you mean, clarify; if they are stuck, support;
      if they are tired, wrap up.`,
    tools: () => [proposeDisposition, needToClarify, userSeemsStuck, timeToWrap],
  }),
  defineMode({
    name: 'clarifying',
    data: item,
    template: (d) =>
      coach`
      You are clarifying which thing "${d.item}" is (${d.reason}): describe where it is and what it
      looks like. Resume sorting once it is clear, or skip it.`,
    tools: () => [resumeSorting, skipItem],
  }),
  defineMode({
    name: 'decision-support',
    data: item,
    template: (d) =>
      coach`
      The user is stuck on "${d.item}" (${d.reason}). Reframe it through what the space is for;
      offer a concrete choice; resume sorting when they decide.`,
    tools: () => [proposeForStuckItem, resumeSorting],
  }),
  defineMode({
    name: 'winding-down',
    data: z.object({ reason: z.string() }),
    template: (d) =>
      coach`
      You are winding down (${d.reason}). Check they are done, then end the session with a
      short, warm summary of what they achieved.`,
    tools: () => [confirmDone, endSession],
  }),
];

/**
 * The mode a decided turn runs its reply in. Asking what a thing is, is the clarifying mode's
 * work (its tools resume sorting or skip the thing), in whichever phase the thing came up.
 */
export function modeFor(action: Action, phase: Phase): string {
  if (action.tag === 'summary') return 'winding-down';
  if (action.tag === 'ask-what-is-it' && phase !== 'surveying' && phase !== 'ended') return 'clarifying';
  switch (phase) {
    case 'surveying':
      return 'surveying';
    case 'sorting':
    case 'splitting':
    case 'refining':
      return 'sorting';
    case 'decision-support':
      return 'decision-support';
    case 'ended':
      return 'winding-down';
  }
}
