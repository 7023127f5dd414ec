import { signal } from '@angular/core';

const STORAGE_KEY = 'sweatpants.showAgentSteps';

/**
 * Whether the chat shows the agent's steps (events, tool calls, mode switches, its notes to
 * itself) besides what was said. One switch for the whole chat, kept per browser.
 */
const shown = signal(readStored());

export const agentStepsShown = shown.asReadonly();

export function showAgentSteps(on: boolean): void {
  shown.set(on);
  try {
    if (on) localStorage.setItem(STORAGE_KEY, 'true');
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // storage may be unavailable (private mode): the switch holds until reload
  }
}

/** Reads the stored choice again (after storage changed under it, e.g. in specs). */
export function reloadAgentSteps(): void {
  shown.set(readStored());
}

function readStored(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'true';
  } catch {
    return false;
  }
}
