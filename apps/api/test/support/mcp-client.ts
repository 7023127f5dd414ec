import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { TestApi } from './test-api';

/**
 * The official SDK's client, connected to the api's `/mcp` with `token`: a new session, or the
 * session `sessionId` (as a client does when a load balancer sends it to another process).
 */
export async function mcpClient(
  api: Pick<TestApi, 'url'>,
  token: string,
  capabilities: ClientCapabilities = {},
  sessionId?: string,
): Promise<Client> {
  const client = new Client({ name: 'sweatpants-spec', version: '1.0.0' }, { capabilities });
  const transport = new StreamableHTTPClientTransport(new URL(api.url('/mcp')), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    ...(sessionId !== undefined ? { sessionId } : {}),
  });
  await client.connect(transport);
  return client;
}

/** The text of each content block of a tool's result. */
export function textsOf(result: object): string[] {
  const blocks = 'content' in result ? result.content : undefined;
  const content = Array.isArray(blocks) ? (blocks as { type: string; text?: string }[]) : [];
  return content.filter((c) => c.type === 'text').map((c) => c.text ?? '');
}
