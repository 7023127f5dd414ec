import * as z from 'zod';
import { asTheModelReads } from './as-the-model-reads';
import type { FakeRequest } from './fake-anthropic-server';

/**
 * A content block of a request as specs read it: one shape with each kind's fields optional, so a
 * spec can look at any block without first proving its kind. Tool results always carry text (the
 * adapter sends a tool's answer as a string).
 */
export const ReadBlockSchema = z.looseObject({
  type: z.string(),
  text: z.string().optional(),
  id: z.string().optional(),
  name: z.string().optional(),
  input: z.unknown().optional(),
  tool_use_id: z.string().optional(),
  content: z.string().optional(),
  is_error: z.boolean().optional(),
  source: z.looseObject({ type: z.string(), media_type: z.string().optional(), data: z.string() }).optional(),
});
export type ReadBlock = z.infer<typeof ReadBlockSchema>;

/** A request body as `asTheModelReads` gives it, checked rather than assumed. */
export const ReadBodySchema = z.object({
  system: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.union([z.string(), z.array(ReadBlockSchema)]) })),
  tools: z.array(z.looseObject({ name: z.string() })).optional(),
  tool_choice: z.looseObject({ type: z.string(), name: z.string().optional() }).optional(),
});
export type ReadBody = z.infer<typeof ReadBodySchema>;

/**
 * A request the fake received as the model reads it (`asTheModelReads`), typed for specs that look
 * inside its blocks; throws if the adapter sent something the schema does not describe.
 *
 * @example
 * const [vision] = fake.requests.map(readBody);
 * expect(vision?.tools?.map((t) => t.name)).toEqual(['record_photo_analysis']);
 */
export const readBody = (request: FakeRequest): ReadBody => ReadBodySchema.parse(asTheModelReads(request));
