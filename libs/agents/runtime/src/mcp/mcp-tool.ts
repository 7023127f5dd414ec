import { PhotoMediaTypeSchema, type Json, type Photo } from '@sweatpants/domain';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { call, type Operation } from 'effection';
import { PhotoStoreContext } from '../photo-store';
import type { ToolSpec } from '../model';
import { ToolError, ToolSuccess, type Tool, type ToolOutcome } from '../tool';
import type { McpToolInfo } from './mcp-connection';
import { McpTimeoutError } from './mcp-deadline';

/** The Messages API's rule for a tool's name. */
const MAX_NAME = 64;

/**
 * The name the model knows a server's tool by: `<server>_<tool>`, each character outside the
 * Messages API's rule (a-z, A-Z, 0-9, _ and -) made `_`, cut at 64.
 *
 * @example
 * mcpToolName('everything', 'get-sum'); // 'everything_get-sum'
 * mcpToolName('files', 'read.file'); // 'files_read_file'
 */
export function mcpToolName(server: string, tool: string): string {
  return `${server}_${tool}`.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, MAX_NAME);
}

/** How a server's tool is called: by the server's name for it, with the model's input. */
export type McpCall = (server: string, tool: string, input: Json) => Operation<ToolOutcome>;

/**
 * The server's tools as runtime tools, ordered by name (the prompt cache holds a tool list that
 * does not move): named by `mcpToolName` (two that come out the same get `_2`, `_3`…), described
 * as the server describes them, their input the server's JSON Schema as given (without `$schema`). Each changes the
 * world outside the tree, so what led to a call is stored before it is made and a replay never
 * makes it again once its result is recorded. The server checks the input.
 *
 * @example
 * const tools = mcpTools('everything', listed, (server, tool, input) => connections.call(server, tool, input));
 * tools.map((t) => t.name); // ['everything_echo', 'everything_get-sum', …]
 */
export function mcpTools(server: string, listed: readonly McpToolInfo[], run: McpCall): Tool[] {
  const taken = new Set<string>();
  const tools = [...listed]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((info): Tool => {
      const name = unique(mcpToolName(server, info.name), taken);
      const description =
        info.description ?? info.title ?? `${info.name}, a tool of the MCP server ${server}`;
      // As the server gave it, less the dialect line, which the runtime sends for no tool.
      const { $schema: _dialect, ...inputSchema } = info.inputSchema;
      const spec: ToolSpec = { name, description, inputSchema: inputSchema as ToolSpec['inputSchema'] };
      return {
        name,
        description,
        spec,
        outsideEffects: true,
        run: (input) => run(server, info.name, input),
      };
    });
  return tools.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function unique(name: string, taken: Set<string>): string {
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) {
    const suffix = `_${n}`;
    candidate = `${name.slice(0, MAX_NAME - suffix.length)}${suffix}`;
  }
  taken.add(candidate);
  return candidate;
}

/**
 * What the model reads of a server's answer: its text blocks joined (other blocks named by what
 * they are), its structured content when it sent no text; an `isError` answer is a tool error.
 * `kept` holds the answer's images as stored photos, in order (null for one not kept): each is
 * the outcome's, shown to the model and the person, and its words say so.
 *
 * @example
 * outcomeOfResult({ content: [{ type: 'text', text: 'Echo: hello' }] }); // ToolSuccess('Echo: hello')
 */
export function outcomeOfResult(result: CallToolResult, kept: readonly (Photo | null)[] = []): ToolOutcome {
  let image = 0;
  const parts = (result.content ?? []).map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
        return kept[image++] ? `[image ${block.mimeType}, shown to the person]` : `[image ${block.mimeType}]`;
      case 'audio':
        return `[${block.type} ${block.mimeType}]`;
      case 'resource_link':
        return `[resource ${block.uri}]`;
      case 'resource':
        return 'text' in block.resource ? block.resource.text : `[resource ${block.resource.uri}]`;
    }
  });
  const text =
    parts.length > 0 || result.structuredContent === undefined
      ? parts.join('\n')
      : JSON.stringify(result.structuredContent);
  if (result.isError) return ToolError(text || 'the tool failed and said nothing more');
  const photos = kept.filter((photo): photo is Photo => photo !== null);
  return photos.length > 0 ? { kind: 'success', value: text, photos } : ToolSuccess(text as Json);
}

/**
 * A server's answer as an outcome, its images kept first when the turn has a photo store (each as
 * a person's photo is: checked, without metadata); with none, they are named in words only.
 *
 * @example
 * return yield* outcomeKeepingImages(yield* connection.callTool(tool, args, ask));
 */
export function* outcomeKeepingImages(result: CallToolResult): Operation<ToolOutcome> {
  const store = yield* PhotoStoreContext.expect();
  const images = (result.content ?? []).flatMap((block) => (block.type === 'image' ? [block] : []));
  if (!store || images.length === 0 || result.isError) return outcomeOfResult(result);
  const kept: (Photo | null)[] = [];
  for (const image of images) {
    const mediaType = PhotoMediaTypeSchema.safeParse(image.mimeType);
    kept.push(
      mediaType.success
        ? yield* call(() => store.keep({ mediaType: mediaType.data, data: image.data }).catch(() => null))
        : null,
    );
  }
  return outcomeOfResult(result, kept);
}

/**
 * The tool error the model reads when a call failed at the server or on the way: it did not answer
 * in time, it went away, it refused the call, or it could not be reached. Says which server, so
 * the model (and the person) know where the trouble is.
 *
 * @example
 * outcomeOfFailure('everything', 'echo', new McpTimeoutError('echo did not answer within 30 s'));
 * // ToolError('the MCP server everything: echo did not answer within 30 s')
 */
export function outcomeOfFailure(server: string, tool: string, error: unknown, stderr = ''): ToolOutcome {
  const said = stderr ? ` (it said: ${stderr.split('\n').at(-1)})` : '';
  if (error instanceof McpTimeoutError) return ToolError(`the MCP server ${server}: ${error.message}`);
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed)
    return ToolError(`the MCP server ${server} went away during ${tool}${said}`);
  if (error instanceof McpError)
    return ToolError(`the MCP server ${server} refused ${tool}: ${error.message}`);
  const message = error instanceof Error ? error.message : String(error);
  return ToolError(`the MCP server ${server} could not be reached for ${tool}: ${message}${said}`);
}
