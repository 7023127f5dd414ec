import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  ErrorCode,
  McpError,
  type CallToolResult,
  type ElicitResult,
  type Tool as McpToolInfo,
} from '@modelcontextprotocol/sdk/types.js';
import { call, resource, type Operation } from 'effection';
import { LONGEST_TIMER_MS, McpDeadline, McpTimeoutError } from './mcp-deadline';
import type { McpElicitation } from './mcp-elicitation';
import { isHttpServer, type McpServerConfig } from './mcp-server-config';

export type { McpToolInfo };

/** How this client introduces itself to a server. */
const CLIENT_INFO = { name: 'sweatpants', version: '0.1.0' };

/** Lines of a stdio server's stderr kept, to say why it went away. */
const STDERR_LINES = 5;

/** Who answers a server's elicitation during a call: the person, through the turn that made it. */
export type McpAsker = (elicitation: McpElicitation) => Promise<ElicitResult>;

/**
 * One open connection to an MCP server, with the official SDK's `Client`. It carries one tool call
 * at a time, so a question the server asks during a call belongs to that call's conversation and
 * nobody else's.
 */
export interface McpConnection {
  readonly server: McpServerConfig;
  /** the server's tools, listed when the connection opened */
  readonly tools: readonly McpToolInfo[];
  /** false once the server went away (a stdio server that exited, a closed session) */
  readonly open: boolean;
  /** what the server last wrote to stderr (stdio servers), to tell a person why it failed */
  readonly stderr: string;
  /**
   * Calls `name`; an elicitation the server sends meanwhile is put to `ask`, and its progress
   * notifications to `progress`. Throws McpTimeoutError
   * when the server is silent for longer than its timeout (not counting the time the person takes
   * to answer it), and the SDK's errors when it refuses or goes away. Halting the operation
   * cancels the call at the server.
   */
  callTool(
    name: string,
    args: { [key: string]: unknown },
    ask: McpAsker,
    progress?: McpProgress,
  ): Operation<CallToolResult>;
}

/** What a server says of a call's progress while it runs: how far, of how much, in its words. */
export type McpProgress = (progress: McpProgressHeard) => void;

/** One progress notification of a call, as the SDK hands it over. */
export interface McpProgressHeard {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * A connection to `server` as an effection resource: connected and its tools listed when it is
 * provided, closed (a stdio server's process ended) when the scope that opened it ends. Connecting
 * and listing are bounded by `timeoutMs` too.
 *
 * @example
 * const everything = yield* useMcpConnection({ name: 'everything', command: 'node', args: [path, 'stdio'] }, 30_000);
 * const result = yield* everything.callTool('echo', { message: 'hello' }, askNobody);
 */
export function useMcpConnection(server: McpServerConfig, timeoutMs: number): Operation<McpConnection> {
  return resource(function* (provide) {
    const client = new Client(CLIENT_INFO, { capabilities: { elicitation: { form: {}, url: {} } } });
    let asking: McpAsker | undefined;
    let open = true;
    const stderr: string[] = [];
    client.onclose = () => {
      open = false;
    };
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      if (!asking) throw new McpError(ErrorCode.InvalidRequest, 'no tool call is in flight to ask for');
      return asking(request.params);
    });
    const transport = transportFor(server, (line) => {
      stderr.push(line);
      if (stderr.length > STDERR_LINES) stderr.shift();
    });
    try {
      let tools: McpToolInfo[];
      try {
        yield* call(() => client.connect(transport, { timeout: timeoutMs }));
        tools = yield* call(() => listTools(client, timeoutMs));
      } catch (error) {
        // A server that could not start says why on stderr, better than "connection closed".
        const said = stderr.at(-1);
        const message = error instanceof Error ? error.message : String(error);
        throw new Error(said ? `${message} (it said: ${said})` : message, { cause: error });
      }
      yield* provide({
        server,
        tools,
        get open() {
          return open;
        },
        get stderr() {
          return stderr.join('\n');
        },
        *callTool(name, args, ask, progress) {
          const deadline = new McpDeadline(
            timeoutMs,
            () => new McpTimeoutError(`${name} did not answer within ${seconds(timeoutMs)}`),
          );
          const controller = new AbortController();
          let settled = false;
          asking = async (elicitation) => {
            deadline.stop();
            try {
              return await ask(elicitation);
            } finally {
              deadline.restart();
            }
          };
          const options = {
            signal: controller.signal,
            // Ours counts, paused while the person answers; the SDK's would not pause.
            timeout: LONGEST_TIMER_MS,
            onprogress: (heard: McpProgressHeard) => {
              deadline.restart();
              progress?.(heard);
            },
          };
          // A tool that runs only as a task (MCP's tasks: call now, fetch the result later)
          const task: { id?: string } | undefined = tools.some(
            (tool) => tool.name === name && tool.execution?.taskSupport === 'required',
          )
            ? {}
            : undefined;
          try {
            const result = yield* call(() =>
              Promise.race([
                task
                  ? taskResult(client, name, args, options, (id) => {
                      task.id = id;
                      deadline.restart();
                    })
                  : client.callTool({ name, arguments: args }, CallToolResultSchema, options),
                deadline.expired,
              ]),
            );
            settled = true;
            return result as CallToolResult;
          } finally {
            deadline.stop();
            asking = undefined;
            // Timed out, or halted mid-call (a Stop, a closed runner): the server is told to cancel.
            if (!settled) {
              controller.abort();
              const id = task?.id;
              if (id) void client.experimental.tasks.cancelTask(id).catch(() => undefined);
            }
          }
        },
      });
    } finally {
      open = false;
      yield* call(() => client.close().catch(() => undefined));
    }
  });
}

function transportFor(server: McpServerConfig, stderrLine: (line: string) => void): Transport {
  if (isHttpServer(server)) {
    return new StreamableHTTPClientTransport(new URL(server.url), {
      requestInit: { headers: server.headers ?? {} },
    });
  }
  const transport = new StdioClientTransport({
    command: server.command,
    args: server.args ?? [],
    ...(server.env ? { env: server.env } : {}),
    // Read, not inherited: a server's chatter stays out of the api's logs unless it explains a failure.
    stderr: 'pipe',
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') stderrLine(line.trim());
  });
  return transport;
}

/**
 * A task-based call's result: the task is created, its status polled as the server suggests (each
 * status heard is a sign of life, as progress is), and its result fetched once it completes; a
 * question the server asks meanwhile comes through the client's elicitation handler.
 */
async function taskResult(
  client: Client,
  name: string,
  args: { [key: string]: unknown },
  options: {
    signal: AbortSignal;
    timeout: number;
    onprogress: (heard: McpProgressHeard) => void;
  },
  heard: (taskId: string) => void,
): Promise<CallToolResult> {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    ...options,
    task: {},
  });
  for await (const message of stream) {
    switch (message.type) {
      case 'taskCreated':
      case 'taskStatus':
        heard(message.task.taskId);
        break;
      case 'result':
        return message.result as CallToolResult;
      case 'error':
        throw message.error;
    }
  }
  throw new McpError(ErrorCode.InternalError, `${name} ended without a result`);
}

/** Every page of the server's tools. */
async function listTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const tools: McpToolInfo[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

/** "30 s", "1.5 s". */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}
