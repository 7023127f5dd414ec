import type { ElicitAnswer, ElicitRequest, ElicitResponse, Json } from '@sweatpants/domain';
import type { Operation } from 'effection';

/** An answer before it is checked against its type: what a prompt makes of what was typed. */
export interface Candidate {
  action: ElicitAnswer['action'];
  content?: Json;
}

/** A command (`/cancel`, `? text`) or the end of input settled the answer before any prompt did. */
export interface Settled {
  settled: Candidate;
}

/** What a prompt may do with the terminal. */
export interface CliIo {
  say(text: string): void;
  /** writes `prompt` and reads a line; a command or the end of input comes back settled */
  read(prompt: string): Operation<string | Settled>;
  /** asks a nested elicit (a group's question, a choice's reveal), checked like any other */
  ask(request: ElicitRequest): Operation<ElicitResponse>;
}
