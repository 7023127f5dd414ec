import type { Json } from '@sweatpants/domain';
import type { ElicitRequest as McpElicitRequest, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type { Operation } from 'effection';
import { HeadMovedError, ReplayDivergenceError } from '../journal';
import { elicit } from '../elicit';
import { log, type ElicitInput, type Elicited } from '../primitives';

/** What an MCP server asks the client during a tool call (`elicitation/create`'s params). */
export type McpElicitation = McpElicitRequest['params'];

/**
 * The person's question for an MCP server's elicitation, within PROTOCOL.md's elicit types:
 * form mode is a `form` with the server's flat schema as it gave it; URL mode (the server wants the
 * person to open a page: a sign-in, a payment) is a `confirm` whose message carries the link, so
 * any client can show it and the person says whether they opened it.
 *
 * @example
 * elicitInputOf('everything', { mode: 'url', message: 'Sign in', url: 'https://x.test/a', elicitationId: 'e1' });
 * // { type: 'confirm', message: 'Sign in\n\nOpen https://x.test/a', payload: { default: true } }
 */
export function elicitInputOf(elicitation: McpElicitation): ElicitInput {
  if (elicitation.mode === 'url') {
    return {
      type: 'confirm',
      message: `${elicitation.message}\n\nOpen ${elicitation.url}`,
      payload: { default: true },
    };
  }
  return {
    type: 'form',
    message: elicitation.message,
    payload: {},
    schema: elicitation.requestedSchema as unknown as { [key: string]: Json },
  };
}

/**
 * The person's answer as the MCP server reads it: an accepted form goes back with its content; a
 * URL card accepted says the person went to the page (`accept`), refused is `decline`; a dismissal,
 * a deadline passed, a refused device or words that did not answer are `cancel`.
 *
 * @example
 * mcpResultOf({ mode: 'form', message: 'Name?', requestedSchema }, { action: 'accept', content: { name: 'Ada' } });
 * // { action: 'accept', content: { name: 'Ada' } }
 */
export function mcpResultOf(elicitation: McpElicitation, answer: Elicited): ElicitResult {
  switch (answer.action) {
    case 'accept': {
      if (answer.timedOut) return { action: 'cancel' };
      if (elicitation.mode === 'url') {
        const opened = (answer.content as { value?: unknown }).value === true;
        return { action: opened ? 'accept' : 'decline' };
      }
      return { action: 'accept', content: answer.content as ElicitResult['content'] };
    }
    case 'decline':
      return { action: 'decline' };
    case 'cancel':
    case 'denied':
    case 'other':
      return { action: 'cancel' };
  }
}

/**
 * Asks the person an MCP server's elicitation through the `elicit` primitive (so it is a node on
 * the tree, sent to the person's clients, and found again by a replay) and answers the server. A
 * failure to ask is a `cancel` to the server; a turn that must stop (HEAD moved, a replay that
 * diverged) stops.
 *
 * @example
 * client.setRequestHandler(ElicitRequestSchema, (request) => scope.run(() => askPerson(request.params)));
 */
export function* askPerson(elicitation: McpElicitation): Operation<ElicitResult> {
  try {
    return mcpResultOf(elicitation, yield* elicit(elicitInputOf(elicitation)));
  } catch (error) {
    if (error instanceof HeadMovedError || error instanceof ReplayDivergenceError) throw error;
    yield* log('warn', 'an MCP server question could not be asked; the server is told it was cancelled', {
      message: error instanceof Error ? error.message : String(error),
    });
    return { action: 'cancel' };
  }
}
