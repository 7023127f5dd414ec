import * as z from 'zod';

/** `GET /api/health`: what the api runs on, so a client can show which defaults are in force. */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  queue: z.enum(['ok', 'in-process']),
  model: z.enum(['claude', 'offline']),
});
export type Health = z.infer<typeof HealthSchema>;
