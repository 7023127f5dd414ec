import { Inject, Injectable } from '@nestjs/common';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type Tool as McpTool,
} from '@modelcontextprotocol/sdk/types.js';
import { mcpToolName, ToolCalls, type Tool, type ToolOutcome } from '@sweatpants/agent-runtime';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import type { Json } from '@sweatpants/domain';
import { run } from 'effection';
import { AGENT_CATALOG } from '../agents/agent-catalog.module';
import type { AuthUser } from '../auth/auth-user';
import { AGENT_CALL_INPUT_JSON_SCHEMA, AgentCallResultSchema } from './agent-call-input';
import { AgentCallTasks } from './agent-call-tasks';
import { AgentCalls, type CallObserver, type ToolExtra } from './agent-calls';
import { callerOf } from './mcp-callers';
import { McpTaskStore } from './mcp-task-store';
import * as z from 'zod';

/** How the api names itself to MCP clients. */
const SERVER_INFO = { name: 'sweatpants', version: '0.1.0' };

const OUTPUT_JSON_SCHEMA = (() => {
  const json = z.toJSONSchema(AgentCallResultSchema, { target: 'draft-7', io: 'output' }) as {
    [key: string]: unknown;
  };
  delete json['$schema'];
  return { ...json, type: 'object' as const };
})();

/** A tool as tools/call finds it: what tools/list shows, and what runs it for the caller. */
interface Offered {
  listed: McpTool;
  call(
    user: AuthUser,
    args: unknown,
    extra: ToolExtra,
    canElicit: boolean,
    observer?: CallObserver,
  ): Promise<CallToolResult>;
  /** whether a client may run it as a task (a talk to an agent, which may wait days on a person) */
  tasks: boolean;
}

/**
 * What `/mcp` offers (PROTOCOL.md, MCP), built from the program's catalog: for each agent exposed
 * over MCP a tool named after it, to talk to it in a conversation of the caller's, and the agent's
 * own tools it exposes, as `<agent>_<tool>`. `server()` makes the SDK's Server for one session;
 * who calls is the request's (its verified token, in `authInfo`), never the session's.
 */
@Injectable()
export class AgentTools {
  private readonly offered: ReadonlyMap<string, Offered>;

  constructor(
    @Inject(AGENT_CATALOG) catalog: AgentCatalog,
    private readonly calls: AgentCalls,
    private readonly tasks: AgentCallTasks,
    private readonly taskStore: McpTaskStore,
  ) {
    const offered = new Map<string, Offered>();
    for (const { name, registration, tools } of catalog.mcpAgents()) {
      offered.set(name, {
        listed: {
          name,
          title: registration.about.title,
          description: `${registration.about.description} Talk to the ${registration.about.title.toLowerCase()} in a conversation of yours: send a message (and photos), get its replies. It may ask you questions as it works. Without conversationId a new conversation is started; pass the conversationId it returns to go on.`,
          inputSchema: AGENT_CALL_INPUT_JSON_SCHEMA,
          outputSchema: OUTPUT_JSON_SCHEMA,
          execution: { taskSupport: 'optional' },
        },
        call: (user, args, extra, canElicit, observer) =>
          this.calls.call(user, name, args, extra, canElicit, observer),
        tasks: true,
      });
      for (const tool of tools) {
        const toolName = mcpToolName(name, tool.name);
        offered.set(toolName, {
          listed: {
            name: toolName,
            description: tool.description,
            inputSchema: { ...tool.spec.inputSchema, type: 'object' },
          },
          call: (_user, args) => callAgentTool(tool, args),
          tasks: false,
        });
      }
    }
    this.offered = offered;
  }

  /** The SDK's Server for one MCP session: tools/list and tools/call, nothing hand-rolled. */
  server(): Server {
    const server = new Server(SERVER_INFO, {
      capabilities: {
        tools: { listChanged: false },
        // A talk to an agent may wait days on a person: a client that can may run it as a task.
        tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
      },
      taskStore: this.taskStore,
      instructions:
        'Sweatpants agents. Each tool named after an agent talks to it in a conversation of yours; ' +
        'the conversation is also in your web and terminal clients, where you can answer its questions.',
    });
    server.setRequestHandler(ListToolsRequestSchema, () => ({
      tools: [...this.offered.values()].map((o) => o.listed),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      const tool = this.offered.get(request.params.name);
      if (!tool)
        return toolError(
          `unknown tool ${request.params.name}; the tools are ${[...this.offered.keys()].join(', ')}`,
        );
      const user = callerOf(extra.authInfo);
      if (!user) return toolError('unauthenticated: send Authorization: Bearer <token>');
      const args = request.params.arguments;
      if (request.params.task !== undefined && extra.taskStore) {
        if (!tool.tasks) return toolError(`${request.params.name} answers at once: call it without a task`);
        // Its questions wait for the person, and the task says so (input_required).
        return this.tasks.start(extra, (running, observer) =>
          tool.call(user, args, running, false, observer),
        );
      }
      const elicitation = server.getClientCapabilities()?.elicitation;
      // A client that names no mode supports forms (MCP 2025-11-25).
      const canElicit =
        elicitation !== undefined && (elicitation.form !== undefined || elicitation.url === undefined);
      return tool.call(user, args, extra, canElicit);
    });
    return server;
  }
}

/** An agent's own tool, run as another agent's tool would call it (through ToolCalls' middleware). */
async function callAgentTool(tool: Tool, args: unknown): Promise<CallToolResult> {
  const outcome: ToolOutcome = await run(() => ToolCalls.operations.execute(tool, (args ?? {}) as Json));
  switch (outcome.kind) {
    case 'success': {
      const value = outcome.value;
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      const structured =
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? { structuredContent: value }
          : {};
      return { content: [{ type: 'text', text }], ...structured };
    }
    case 'error':
      return toolError(outcome.message);
    case 'break':
      return { content: [{ type: 'text', text: outcome.text }] };
  }
}

function toolError(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
