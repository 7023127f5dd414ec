import type { ElicitRequest, ElicitResponse, Json, OffScriptContent } from '@sweatpants/domain';
import { createContext, type Operation } from 'effection';
import type { Model } from './model';
import type { Journal } from './journal';
import type { Outbox } from './outbox';

/**
 * What flows down a runner's scope tree (seed 004: context is resolved from the coroutine
 * hierarchy and can be overridden for a subtree with `Context.with(value, op)`).
 */

/**
 * Seed 004's `Context.create(name, default)`: a value a scope sets for its children
 * (`HttpConfig.with({ retries: 10 }, op)`); effection's `createContext` under the seed's name.
 *
 * @example
 * const HttpConfig = Context.create<{ retries: number }>('http-config', { retries: 3 });
 * yield* HttpConfig.with({ retries: 10 }, () => Flaky.tools.fetchData({ endpoint: '/unstable-api' }));
 */
export const Context = { create: createContext } as const;

/** The turn being run: where it writes and who it writes as. */
export interface RunContext {
  conversationId: string;
  /** `agent:<name>`, the author of everything the agent writes */
  authorId: string;
  journal: Journal;
  outbox: Outbox;
}
/**
 * The turn in progress, set by the runner at the top of every turn: what primitives and an agent's
 * own records write through, so that a replayed turn finds what it wrote the first time.
 *
 * @example
 * const run = yield* Run.expect();
 * if (run.journal.take('event', 'the review event')) return;
 * yield* run.journal.append([{ kind: 'event', payload, authorId: run.authorId }]);
 */
export const Run = createContext<RunContext>('sweatpants.run');

/**
 * The model `sample` calls: the runner sets the conversation's (Claude, or the offline model), and
 * a test its own, so no tool names a provider.
 *
 * @example
 * yield* ModelContext.set(new OfflineModel(DONATIONS_OFFLINE_RULES));
 */
export const ModelContext = createContext<Model>('sweatpants.model');

/**
 * How long a question waits for its answer before the asking tool takes its fallback (seed 002's
 * question timeout). By default it waits: a person who walked off to put a mug away comes back to
 * the same question, across restarts. An agent (or a subtree of it) may set a deadline.
 */
export interface QuestionConfig {
  timeoutMs?: number;
}
/**
 * The question deadline in force (none by default); `ask` reads it, and the runner sets the
 * deployment's (`RunnerOptions.questionTimeoutMs`).
 *
 * @example
 * yield* Questions.with({ timeoutMs: 15_000 }, () => runTurn(agent));
 */
export const Questions = createContext<QuestionConfig>('sweatpants.questions', {});

/**
 * A side quest (seed 004): words the user typed while `question` waited, which did not answer it.
 * The runtime runs one turn on them, with this in the `Asides` context, then asks the question
 * again, unless the turn settled it.
 */
export interface Aside {
  question: ElicitRequest;
  said: OffScriptContent;
  /**
   * Says the side quest's turn settled what the question asks (the words said aside decided the
   * card's item after all): the question is not asked again, and its asker gets `answer` as if it
   * had been given. A replay calls it again from the same recorded turn, so it is not stored.
   */
  settle(answer: ElicitResponse): void;
}

/**
 * Runs a side quest when the user answers an elicit off-script: the runner installs a handler
 * that runs a turn on the user's words below the answer; the elicit then asks its question again.
 * Without a handler an `other` answer goes to the asker like any other.
 */
export type SideQuestHandler = (aside: Aside) => Operation<void>;
/**
 * The side-quest handler in force: `elicit` calls it with an off-script answer that is a tangent.
 * It stays in force in a side quest's own turn: a tangent typed at a card asked there runs a side
 * quest of its own, and each card comes back after the side quest it waited on (the latest first).
 * Without a handler (outside a turn chain) the asker reads the words.
 *
 * @example
 * yield* SideQuests.set(function* (aside) {
 *   yield* Asides.with(aside, () => runTurn(agent));
 * });
 */
export const SideQuests = createContext<SideQuestHandler | null>('sweatpants.side-quests', null);

/**
 * While a side quest's turn runs: what it runs on. Null in every other turn. An agent's own turn
 * reads it to answer the words said aside rather than the last message.
 *
 * @example
 * const aside = yield* Asides.expect();
 * const card = aside ? openCardOf(aside.question) : null;
 */
export const Asides = createContext<Aside | null>('sweatpants.aside', null);

/** Where `log` writes. */
export interface LogSink {
  write(level: LogLevel, message: string, fields?: { [key: string]: Json }): void;
}
/** How much a log line matters; `debug` is for whoever installs a sink that keeps it. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
/**
 * The default sink: info, warn and error to the console, with their fields as JSON; debug lines are
 * dropped.
 */
export const consoleLog: LogSink = {
  write: (level, message, fields) => {
    const line = fields ? `${message} ${JSON.stringify(fields)}` : message;
    if (level === 'error') console.error(line);
    else if (level === 'warn') console.warn(line);
    else if (level === 'info') console.info(line);
  },
};
/**
 * Where `log` writes in this scope: the console by default, the runner's `logs` in a turn, so the
 * api and the terminal chat send an agent's log lines where their own go.
 *
 * @example
 * yield* Logs.set({ write: (level, message, fields) => lines.push({ level, message, fields }) });
 */
export const Logs = createContext<LogSink>('sweatpants.logs', consoleLog);
