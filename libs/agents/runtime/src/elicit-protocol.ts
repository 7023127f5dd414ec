import { ElicitActionSchema, ElicitTypeSchema, JsonSchema, OffScriptContentSchema } from '@sweatpants/domain';
import * as z from 'zod';
import { createProtocol } from './protocol';

/**
 * Elicit as a protocol (seed 004's "Elicit across environments"): the agent asks, and whichever
 * implementation is in force (the browser over the socket, a terminal, a test) answers. Content is
 * checked against its elicit type by the implementation that receives it; here only the envelope.
 */
export const ElicitRequestSchema = z.object({
  elicitId: z.string().min(1),
  type: ElicitTypeSchema,
  message: z.string(),
  payload: z.record(z.string(), JsonSchema),
  schema: z.record(z.string(), JsonSchema).optional(),
  timeoutMs: z.number().int().positive().optional(),
  resumes: z.string().min(1).optional(),
  /** the agent that asks (the author of the question's node) */
  askedBy: z.string().min(1).optional(),
});

/** Who gave an answer (a user id), when the implementation knows: its node is authored by them. */
const answeredBy = z.string().min(1).optional();

/**
 * An answer's envelope as it crosses the protocol: accepted content (checked against its type by
 * the implementation that received it), off-script words, or one of the actions that carry none.
 */
export const ElicitResponseSchema = z.union([
  z.object({ action: z.literal('accept'), content: JsonSchema, answeredBy }),
  z.object({ action: z.literal('other'), content: OffScriptContentSchema, answeredBy }),
  z.object({ action: ElicitActionSchema.extract(['decline', 'cancel', 'denied']), answeredBy }),
]);

/**
 * The protocol `elicit` asks through: the runner puts its PendingElicits in force (answers from
 * the api's sockets), the terminal chat its prompts, a test whatever answers it needs.
 *
 * @example
 * const cli = new CliElicits({ input: process.stdin, output: process.stdout });
 * yield* ElicitProtocol.implement(cli.implementation);
 * const handle = yield* ElicitProtocol.attach();
 * const answer = yield* handle.call('elicit', request, ({ payload }) => console.log(payload));
 */
export const ElicitProtocol = createProtocol('elicit', {
  elicit: {
    args: ElicitRequestSchema,
    /** what the browser reports while the user works on it (seed 004: progress streams) */
    progress: z.object({ payload: JsonSchema }),
    returns: ElicitResponseSchema,
  },
});
/**
 * The elicit protocol's declaration, to type an implementation of it
 * (`Implementation<ElicitProtocolSpec>`). Not the domain's `ElicitSpec`, which declares one question type.
 */
export type ElicitProtocolSpec = (typeof ElicitProtocol)['spec'];
