import {
  ElicitRequestSchema,
  InlinePhotoSchema,
  MAX_MESSAGE_PHOTOS,
  MessageTextSchema,
  type ElicitRequest,
} from '@sweatpants/domain';
import * as z from 'zod';

/**
 * What an MCP client sends an exposed agent's tool (PROTOCOL.md, MCP): the person's message, photos
 * inline as on HTTP, and the conversation to say it in (a new one of the caller's when absent).
 */
export const AgentCallInputSchema = z
  .object({
    message: MessageTextSchema.describe('what to say to the agent'),
    photos: z
      .array(InlinePhotoSchema)
      .max(MAX_MESSAGE_PHOTOS)
      .optional()
      .describe('photos to send with the message, as base64 with their media type'),
    conversationId: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('the conversation to continue; without it a new one is started'),
  })
  .strict();
export type AgentCallInput = z.infer<typeof AgentCallInputSchema>;

/** The tool's `structuredContent`: where the conversation is, and the question it waits on, if any. */
export const AgentCallResultSchema = z.object({
  conversationId: z.string(),
  status: z.enum(['running', 'waiting', 'idle']),
  question: ElicitRequestSchema.nullable(),
});
export interface AgentCallResult {
  conversationId: string;
  status: 'running' | 'waiting' | 'idle';
  question: ElicitRequest | null;
  [key: string]: unknown;
}

/** The JSON schemas tools/list shows, from the zod schemas above. */
export const AGENT_CALL_INPUT_JSON_SCHEMA = jsonSchemaOf(AgentCallInputSchema);

function jsonSchemaOf(schema: z.ZodType): { type: 'object'; [key: string]: unknown } {
  const json = z.toJSONSchema(schema, { target: 'draft-7' }) as { [key: string]: unknown };
  delete json['$schema'];
  return { ...json, type: 'object' };
}

/** A zod error as one line naming each bad field: what a tool error tells the client. */
export function problemsOf(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(arguments)'}: ${i.message}`).join('; ');
}
