import type { Json } from '@sweatpants/domain';
import type { Api, Operation } from 'effection';
import { createApi } from 'effection/experimental';
import type { Mode } from './agent-definition';
import type { Tool } from './tool';

/** What middleware around the tools a turn offers sees: the mode, and the data it is in. */
export interface OfferedToolsApi {
  offered(mode: Mode, data: Json): Operation<readonly Tool[]>;
}

/**
 * The tools a turn offers the model in a mode, as an effection Api: the mode's own by default, and
 * whatever middleware installed in the turn's scope adds, so that a plugin gives an agent tools it
 * only learns of while it runs (the tools of an MCP server, `useMcpServers`) without the mode
 * naming them. The turn asks once for each model call; what it offers is also what the dispatcher
 * runs a call by.
 *
 * @example
 * yield* OfferedTools.around({
 *   *offered([mode, data], next) {
 *     return [...(yield* next(mode, data)), clock];
 *   },
 * });
 */
export const OfferedTools: Api<OfferedToolsApi> = createApi<OfferedToolsApi>('sweatpants.offered-tools', {
  *offered(mode, data) {
    return mode.tools(data);
  },
});
