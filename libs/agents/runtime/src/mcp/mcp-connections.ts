import type { Json } from '@sweatpants/domain';
import { all, suspend, useScope, withResolvers, type Operation, type Scope } from 'effection';
import { UrlElicitationRequiredError } from '@modelcontextprotocol/sdk/types.js';
import { Run } from '../context';
import { log } from '../primitives';
import { ToolError, type Tool, type ToolOutcome } from '../tool';
import {
  useMcpConnection,
  type McpAsker,
  type McpConnection,
  type McpProgress,
  type McpToolInfo,
} from './mcp-connection';
import { askPerson } from './mcp-elicitation';
import type { McpServerConfig } from './mcp-server-config';
import { mcpTools, outcomeKeepingImages, outcomeOfFailure } from './mcp-tool';

/** A connection, or why none could be opened. */
type Opened = { ok: true; connection: McpConnection } | { ok: false; error: unknown };

/**
 * The MCP connections of one turn (a runner's input and the turns it chains): opened lazily when
 * the turn first lists tools, each in the scope the turn's plugins were installed in, so they
 * close with it. A connection carries one call at a time; a call made while another waits (in a
 * side quest, say) opens one of its own, so every question a server asks goes to the call, and the
 * conversation, that it belongs to.
 *
 * `known` outlives the turn: the tools each server listed last, offered again while it is down so
 * the model's list does not move and a call says the server is down rather than that there is no
 * such tool.
 */
export class McpConnections {
  private readonly idle = new Map<string, McpConnection[]>();
  private listed: readonly Tool[] | undefined;

  constructor(
    private readonly scope: Scope,
    private readonly servers: readonly McpServerConfig[],
    private readonly timeoutOf: (server: McpServerConfig) => number,
    private readonly known: Map<string, readonly McpToolInfo[]>,
  ) {}

  /** Every server's tools, ordered by name; listed once a turn. */
  *tools(): Operation<readonly Tool[]> {
    if (this.listed) return this.listed;
    const lists = yield* all(this.servers.map((server) => this.toolsOf(server)));
    const run = (server: string, tool: string, input: Json) => this.call(server, tool, input);
    const tools = this.servers.flatMap((server, i) => mcpTools(server.name, lists[i] ?? [], run));
    this.listed = tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return this.listed;
  }

  /** Calls `tool` of `server` with the model's input; every failure is a tool error. */
  *call(serverName: string, tool: string, input: Json): Operation<ToolOutcome> {
    const server = this.servers.find((s) => s.name === serverName);
    if (!server) return outcomeOfFailure(serverName, tool, new Error('no such server is configured'));
    const opened = yield* this.take(server);
    if (!opened.ok) return outcomeOfFailure(server.name, tool, opened.error);
    const { connection } = opened;
    // Questions the server asks during the call are the turn's: asked from the call's own scope.
    const scope = yield* useScope();
    const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
    const ask: McpAsker = (elicitation) => scope.run(() => askPerson(elicitation));
    // The server's progress is shown while the call runs and kept nowhere: a replayed turn would
    // not hear it again, and the call's result is what the tree keeps.
    const run = yield* Run.get();
    const progress: McpProgress = (heard) =>
      run?.outbox.notify({
        // (in words, as the chat names tools: "trigger long running operation: 2 of 5")
        message:
          heard.message ??
          `${tool.replace(/[-_]+/g, ' ')}: ${heard.progress}${heard.total === undefined ? '' : ` of ${heard.total}`}`,
        progress: heard.progress,
        ...(heard.total === undefined ? {} : { total: heard.total }),
      });
    try {
      for (let attempt = 1; ; attempt++) {
        try {
          return yield* outcomeKeepingImages(yield* connection.callTool(tool, args, ask, progress));
        } catch (error) {
          // The server wants pages opened first (a sign-in): the protocol's URL elicitation by
          // error. Each is the person's link card; once they say they opened them, the call is
          // made once more, as the protocol has it.
          if (!(error instanceof UrlElicitationRequiredError) || attempt > 1) throw error;
          for (const page of error.elicitations) {
            const answered = yield* askPerson(page);
            if (answered.action !== 'accept')
              return ToolError(
                `the MCP server ${server.name} needs ${page.url} opened first; the person did not`,
              );
          }
        }
      }
    } catch (error) {
      return outcomeOfFailure(server.name, tool, error, connection.stderr);
    } finally {
      this.giveBack(connection);
    }
  }

  private *toolsOf(server: McpServerConfig): Operation<readonly McpToolInfo[]> {
    const opened = yield* this.take(server);
    if (opened.ok) {
      this.giveBack(opened.connection);
      this.known.set(server.name, opened.connection.tools);
      return opened.connection.tools;
    }
    const known = this.known.get(server.name) ?? [];
    yield* log(
      'warn',
      `the MCP server ${server.name} cannot be reached; its tools as last listed are offered`,
      {
        message: opened.error instanceof Error ? opened.error.message : String(opened.error),
        tools: known.length,
      },
    );
    return known;
  }

  /** An idle open connection to `server`, or a new one. */
  private *take(server: McpServerConfig): Operation<Opened> {
    const idle = this.idle.get(server.name) ?? [];
    for (let connection = idle.pop(); connection; connection = idle.pop()) {
      if (connection.open) return { ok: true, connection };
    }
    return yield* this.open(server);
  }

  private giveBack(connection: McpConnection): void {
    if (!connection.open) return;
    const idle = this.idle.get(connection.server.name) ?? [];
    idle.push(connection);
    this.idle.set(connection.server.name, idle);
  }

  /**
   * Opens a connection as a task of the turn's scope, which holds it until the turn ends. A
   * connection that fails to open fails nothing else: the task says why and ends.
   */
  private *open(server: McpServerConfig): Operation<Opened> {
    const opened = withResolvers<Opened>();
    const timeoutMs = this.timeoutOf(server);
    this.scope.run(function* () {
      try {
        opened.resolve({ ok: true, connection: yield* useMcpConnection(server, timeoutMs) });
      } catch (error) {
        opened.resolve({ ok: false, error });
        return;
      }
      yield* suspend();
    });
    return yield* opened.operation;
  }
}
