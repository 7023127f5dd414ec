import { Injectable } from '@nestjs/common';
import { context, ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { ConversationPort, Model } from '@sweatpants/agent-runtime/host';
import type { ConversationCommand, ElicitRequest } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { inSpan } from './in-span';
import { ElicitWaits } from './elicit-waits';
import { GEN_AI, SWEATPANTS } from './span-attributes';
import { toolSpans } from './tool-spans';
import { tracedModel } from './traced-model';
import { tracedPort } from './traced-port';
import { tracingStatus } from './tracing-sdk';

/** Commands after which the agent works (or stops): its model calls, tools and writes are theirs. */
const TURN_COMMANDS: ReadonlySet<ConversationCommand['kind']> = new Set([
  'send',
  'respond',
  'edit',
  'regenerate',
  'rewind',
  'recover',
  'cancel',
]);

/**
 * A conversation's spans, nested under the command that caused them. A command is one trace: the
 * HTTP request or socket event that carried it is the root, `command <kind>` names the
 * conversation and the command, and what the agent then does belongs to it.
 *
 * The agent's work does not run in the command's async context: a turn runs in its runner's
 * effection scope, which outlives the command (a send answers once the message is stored; the
 * turn goes on), and effection resumes its operations from whatever settled last. So the context
 * is carried by hand: the actor hands each command's context in with its letter (`during`), the
 * latest command that drives the agent is the conversation's turn context, and the spans of model
 * calls, tools, appends, waits and compaction requests start under it explicitly.
 *
 * With tracing off every wrapper here hands back what it was given: no span, no cost.
 */
@Injectable()
export class ConversationTraces {
  readonly enabled = tracingStatus().on;
  private readonly captureContent: boolean;
  private readonly turns = new Map<string, Context>();
  private readonly waits = new ElicitWaits();

  constructor() {
    const status = tracingStatus();
    this.captureContent = status.on && status.captureContent;
  }

  /**
   * Runs `work` as the command `kind` on the conversation, in a `command <kind>` span under the
   * active context (the request's, or a forwarded command's).
   */
  command<T>(conversationId: string, kind: ConversationCommand['kind'], work: () => Promise<T>): Promise<T> {
    if (!this.enabled) return work();
    const attributes = { [GEN_AI.conversationId]: conversationId, [SWEATPANTS.command]: kind };
    return inSpan(`command ${kind}`, { attributes }, work);
  }

  /**
   * Runs the actor's handling of a command in the context the command arrived in (`from`, which
   * the letter carried); a command that drives the agent makes it the conversation's turn context.
   */
  during<T>(
    conversationId: string,
    kind: ConversationCommand['kind'],
    from: Context,
    work: () => Promise<T>,
  ): Promise<T> {
    if (!this.enabled) return work();
    if (TURN_COMMANDS.has(kind)) this.turns.set(conversationId, from);
    return context.with(from, work);
  }

  /** The context the conversation's agent works in: its latest driving command's. */
  turnContext(conversationId: string): Context {
    return this.turns.get(conversationId) ?? ROOT_CONTEXT;
  }

  /** The conversation's actor went: its turn context goes with it. */
  forget(conversationId: string): void {
    this.turns.delete(conversationId);
  }

  /** The conversation's model, each call a GenAI `chat` span of its turn. */
  model(conversationId: string, model: Model): Model {
    if (!this.enabled) return model;
    return tracedModel(model, {
      parent: () => this.turnContext(conversationId),
      conversationId,
      captureContent: this.captureContent,
    });
  }

  /** A model outside any conversation's turn (the summariser's): its spans under the active context. */
  detachedModel(model: Model): Model {
    if (!this.enabled) return model;
    return tracedModel(model, { parent: () => context.active(), captureContent: this.captureContent });
  }

  /** The runner's `provide`, with every tool the agent runs an `execute_tool` span of its turn. */
  provide(conversationId: string, services: () => Operation<void>): () => Operation<void> {
    if (!this.enabled) return services;
    const parent = () => this.turnContext(conversationId);
    return function* () {
      yield* toolSpans(parent, conversationId);
      yield* services();
    };
  }

  /** The runner's port, each append a span of its turn; an answer stored ends the question's wait. */
  port(port: ConversationPort): ConversationPort {
    if (!this.enabled) return port;
    return tracedPort(port, {
      parent: (conversationId) => this.turnContext(conversationId),
      answered: (conversationId, elicitId) => this.waits.ended(conversationId, elicitId, 'answered'),
    });
  }

  /** A question put before the person: its wait is a span until it is answered or withdrawn. */
  elicitAsked(conversationId: string, request: ElicitRequest): void {
    if (this.enabled) this.waits.asked(conversationId, request, this.turnContext(conversationId));
  }

  elicitWithdrawn(conversationId: string, elicitId: string, reason: string): void {
    if (this.enabled) this.waits.ended(conversationId, elicitId, reason);
  }
}
