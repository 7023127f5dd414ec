import * as z from 'zod';

/** `GET /api/health`: what the api runs on, so a client can show which defaults are in force. */
export const HealthSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  queue: z.enum(['ok', 'in-process']),
  model: z.enum(['claude', 'offline']),
});
export type Health = z.infer<typeof HealthSchema>;

/** `GET /api/health/live`: the process runs (a load balancer restarts it when this stops answering). */
export const LivenessSchema = z.object({ status: z.literal('ok') });
export type Liveness = z.infer<typeof LivenessSchema>;

/**
 * `GET /api/health/ready`: the process can serve (its database answers with every migration
 * applied, and Redis answers when jobs run through it); a load balancer sends traffic only then.
 */
export const ReadinessSchema = z.object({
  status: z.literal('ok'),
  db: z.literal('ok'),
  migrations: z.literal('ok'),
  queue: z.enum(['ok', 'in-process']),
});
export type Readiness = z.infer<typeof ReadinessSchema>;
