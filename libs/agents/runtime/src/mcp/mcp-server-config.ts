import * as z from 'zod';

/**
 * How long a call to an MCP server may take (connecting, listing its tools, a tool call) before
 * the model is told it did not answer. The time a person takes over a question the server asks
 * during a call is not counted: the clock starts again once they answer.
 */
export const DEFAULT_MCP_TIMEOUT_MS = 30_000;

/** A server's name: the prefix of its tools' names, so within the model's rule for tool names. */
const ServerNameSchema = z.string().regex(/^[a-zA-Z0-9_-]{1,32}$/, 'must be 1–32 letters, digits, _ or -');

const TimeoutSchema = z.number().int().positive('must be a positive whole number of milliseconds');

/** An MCP server the deployment starts as a child process and talks to over its stdin and stdout. */
export const StdioServerConfigSchema = z.strictObject({
  name: ServerNameSchema,
  command: z.string().trim().min(1, 'must name the program to run'),
  args: z.array(z.string()).optional(),
  /** added to the few variables a child inherits (PATH, HOME…): the server's keys go here */
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: TimeoutSchema.optional(),
});
export type StdioServerConfig = z.infer<typeof StdioServerConfigSchema>;

/** An MCP server reached over Streamable HTTP, with the headers it wants (an API key, say). */
export const HttpServerConfigSchema = z.strictObject({
  name: ServerNameSchema,
  url: z
    .string()
    .trim()
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), {
      message: 'must be an http:// or https:// URL',
    }),
  headers: z.record(z.string(), z.string()).optional(),
  timeoutMs: TimeoutSchema.optional(),
});
export type HttpServerConfig = z.infer<typeof HttpServerConfigSchema>;

/**
 * One MCP server of the deployment: `{name, command, args?, env?}` over stdio, or
 * `{name, url, headers?}` over Streamable HTTP; either may say its own `timeoutMs`.
 */
export const McpServerConfigSchema = z.union([StdioServerConfigSchema, HttpServerConfigSchema]);
export type McpServerConfig = z.infer<typeof McpServerConfigSchema>;

/** Whether `server` is reached over Streamable HTTP (else it is a child process over stdio). */
export function isHttpServer(server: McpServerConfig): server is HttpServerConfig {
  return 'url' in server;
}

/**
 * Reads a deployment's MCP servers from JSON (the api's `MCP_SERVERS`): an array of server configs
 * with distinct names. Each problem names the entry and the field, and never echoes a value (a
 * header or an env entry may hold a key); none when it parses.
 *
 * @example
 * const read = parseMcpServers('[{"name":"everything","command":"npx","args":["-y","@modelcontextprotocol/server-everything"]}]');
 * if (!read.ok) throw new Error(read.problems.join('; '));
 * read.servers[0].name; // 'everything'
 */
export function parseMcpServers(
  text: string,
): { ok: true; servers: McpServerConfig[] } | { ok: false; problems: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['is not JSON: a JSON array of servers is expected'] };
  }
  if (!Array.isArray(json)) return { ok: false, problems: ['must be a JSON array of servers'] };
  const problems: string[] = [];
  const servers: McpServerConfig[] = [];
  json.forEach((entry: unknown, index) => {
    // Told apart by `url`, so each entry's problems are those of the kind it means to be.
    const schema =
      typeof entry === 'object' && entry !== null && 'url' in entry
        ? HttpServerConfigSchema
        : StdioServerConfigSchema;
    const parsed = schema.safeParse(entry);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path.map(String).join('.');
        problems.push(`[${index}]${field ? `.${field}` : ''}: ${issue.message}`);
      }
      return;
    }
    if (servers.some((s) => s.name === parsed.data.name))
      problems.push(`[${index}].name: another server is named ${parsed.data.name}`);
    servers.push(parsed.data);
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, servers };
}
