import type { ElicitRequest, Json, OffScriptContent } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import type { Model } from './model';
import type { Journal } from './journal';
import type { Outbox } from './outbox';

/**
 * What flows down a runner's scope tree (seed 004: context is resolved from the coroutine
 * hierarchy and can be overridden for a subtree with `Context.with(value, op)`).
 */

/** The turn being run: where it writes and who it writes as. */
export interface RunContext {
  conversationId: string;
  /** `agent:<name>`, the author of everything the agent writes */
  authorId: string;
  journal: Journal;
  outbox: Outbox;
}
export const Run = createContext<RunContext>('sweatpants.run');

/** The model `sample` calls. */
export const ModelContext = createContext<Model>('sweatpants.model');

/**
 * How long a question waits for its answer before the asking tool takes its fallback (seed 002's
 * question timeout). By default it waits: a person who walked off to put a mug away comes back to
 * the same question, across restarts. An agent (or a subtree of it) may set a deadline.
 */
export interface QuestionConfig {
  timeoutMs?: number;
}
export const Questions = createContext<QuestionConfig>('sweatpants.questions', {});

/**
 * A side quest (seed 004): words the user typed while `question` waited, which did not answer it.
 * The runtime runs one turn on them, with this in the `Asides` context, then asks the question
 * again.
 */
export interface Aside {
  question: ElicitRequest;
  said: OffScriptContent;
}

/**
 * Runs a side quest when the user answers an elicit off-script: the runner installs a handler
 * that runs a turn on the user's words below the answer; the elicit then asks its question again.
 * Without a handler an `other` answer goes to the asker like any other.
 */
export type SideQuestHandler = (aside: Aside) => Operation<void>;
export const SideQuests = createContext<SideQuestHandler | null>('sweatpants.side-quests', null);

/** While a side quest's turn runs: what it runs on. Null in every other turn. */
export const Asides = createContext<Aside | null>('sweatpants.aside', null);

/** Where `log` writes. */
export interface LogSink {
  write(level: LogLevel, message: string, fields?: { [key: string]: Json }): void;
}
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export const consoleLog: LogSink = {
  write: (level, message, fields) => {
    const line = fields ? `${message} ${JSON.stringify(fields)}` : message;
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else if (level === 'info') console.info(line);
  },
};
export const Logs = createContext<LogSink>('sweatpants.logs', consoleLog);
