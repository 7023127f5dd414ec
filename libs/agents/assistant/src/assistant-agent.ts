import {
  createAgent,
  defineMode,
  modeReducer,
  prompt,
  useMcpServers,
  type CreatedAgent,
  type McpServerConfig,
} from '@sweatpants/agent-runtime';
import * as z from 'zod';

const INITIAL = { mode: 'helping', data: null };

/** What the assistant is made with: the deployment's MCP servers, and how long a call may take. */
export interface AssistantOptions {
  servers: readonly McpServerConfig[];
  /** a call's timeout for servers that do not set their own (DEFAULT_MCP_TIMEOUT_MS when absent) */
  timeoutMs?: number;
}

/**
 * The general assistant: a chat whose tools are those of the deployment's MCP servers
 * (`useMcpServers`), named `<server>_<tool>`. A server's question during a call is put to the
 * person as a card, and their answer goes back to it. It has no tools of its own.
 *
 * @example
 * const Assistant = createAssistant({ servers: [{ name: 'everything', command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything'] }] });
 * new AgentCatalog().use({ definition: Assistant.definition, about, offlineRules: ASSISTANT_OFFLINE_RULES });
 */
export function createAssistant(options: AssistantOptions): CreatedAgent<Record<string, never>> {
  const mcp = useMcpServers(
    options.servers,
    options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs },
  );
  return createAgent(
    {},
    {
      name: 'assistant',
      modes: [
        defineMode({
          name: 'helping',
          data: z.null(),
          template: () => prompt`
            You are a general assistant. Your tools are those of the MCP servers this deployment
            connects, each named after its server (everything_echo is the echo tool of the server
            called everything). Use them when they help, and say plainly what they answered.
            When a tool fails, say what went wrong in a sentence and what the person could try.
            A tool may ask the person something while it runs; their answer goes back to it.
          `,
          tools: () => [],
        }),
      ],
      initial: INITIAL,
      state: modeReducer('assistant', INITIAL),
      chatPrompt: () => ({ message: 'What shall I do?', placeholder: 'e.g. use echo with hello' }),
      fallbackReply: () => 'I could not think that through just now. Ask me again in a moment.',
      plugins: [mcp],
    },
  );
}
