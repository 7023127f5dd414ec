import { randomUUID } from 'node:crypto';
import { Controller, Inject } from '@nestjs/common';
import { GC_JOB_GROUP, HTTP_CONTRACT } from '@sweatpants/domain';
import type { AuthUser } from '../auth/auth-user';
import { AdminOnly, CurrentUser } from '../auth/auth.decorators';
import { JOB_QUEUE, type JobQueue } from '../queue/job-queue';
import { Endpoint, Input, type EndpointInput, type EndpointResult } from '../http/endpoint';
import { GcRuns } from './gc-runs';

const { gcRuns, runGc } = HTTP_CONTRACT;

/** Garbage collection for admins: its runs so far, and a run now (a dry run reports and removes nothing). */
@AdminOnly()
@Controller()
export class GcController {
  constructor(
    private readonly runs: GcRuns,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  @Endpoint(gcRuns)
  async list(@Input() { query }: EndpointInput<typeof gcRuns>): EndpointResult<typeof gcRuns> {
    await this.runs.closeAbandoned((jobId) => this.queue.state(jobId));
    return { items: await this.runs.list(query.limit) };
  }

  /** Every field of its body is optional, so a request may leave the body out (see @Input()). */
  @Endpoint(runGc)
  async run(
    @CurrentUser() user: AuthUser,
    @Input() { body }: EndpointInput<typeof runGc>,
  ): EndpointResult<typeof runGc> {
    const jobId = `gc.${randomUUID()}`;
    await this.queue.add(
      'tree.gc',
      { dryRun: body.dryRun, requestedBy: user.id },
      { jobId, group: GC_JOB_GROUP },
    );
    return { jobId };
  }
}
