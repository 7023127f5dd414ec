import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, HttpCode, Inject, Post, Query } from '@nestjs/common';
import {
  GC_JOB_GROUP,
  GcRequestSchema,
  GcRunsQuerySchema,
  type GcQueued,
  type GcRequest,
  type GcRunList,
} from '@sweatpants/domain';
import type * as z from 'zod';
import type { AuthUser } from '../auth/auth-user';
import { AdminOnly, CurrentUser } from '../auth/auth.decorators';
import { JOB_QUEUE, type JobQueue } from '../queue/job-queue';
import { ZodPipe } from '../validation/zod.pipe';
import { GcRuns } from './gc-runs';

/** Garbage collection for admins: its runs so far, and a run now (a dry run reports and removes nothing). */
@AdminOnly()
@Controller('admin/gc')
export class GcController {
  constructor(
    private readonly runs: GcRuns,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  @Get()
  async list(
    @Query(new ZodPipe(GcRunsQuerySchema, 'query')) query: z.infer<typeof GcRunsQuerySchema>,
  ): Promise<GcRunList> {
    await this.runs.closeAbandoned((jobId) => this.queue.state(jobId));
    return { items: await this.runs.list(query.limit) };
  }

  @Post()
  @HttpCode(202)
  async run(
    @CurrentUser() user: AuthUser,
    // Every field is optional, so a request may leave the body out altogether.
    @Body(new ZodPipe(GcRequestSchema.default({ dryRun: false }))) body: GcRequest,
  ): Promise<GcQueued> {
    const jobId = `gc.${randomUUID()}`;
    await this.queue.add(
      'tree.gc',
      { dryRun: body.dryRun, requestedBy: user.id },
      { jobId, group: GC_JOB_GROUP },
    );
    return { jobId };
  }
}
