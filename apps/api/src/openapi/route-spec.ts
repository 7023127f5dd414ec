import type * as z from 'zod';

/** One HTTP route as the OpenAPI document describes it, with the zod schemas the handler validates with. */
export interface RouteSpec {
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Express style, `:id` for a path parameter */
  path: string;
  tag: string;
  summary: string;
  /** what a caller must know beyond the summary (becomes the operation's description) */
  description?: string;
  /** who may call it: anyone, a signed-in user, or an admin */
  access: 'public' | 'user' | 'admin';
  body?: z.ZodType;
  query?: z.ZodObject;
  /** the success status and what it answers */
  status: number;
  response: string;
  responseSchema?: z.ZodType;
}
