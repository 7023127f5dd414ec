import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { JOB_NAMES, type JobName } from '@sweatpants/domain';
import { checkProcessors, type JobProcessors } from './job-processors';

/**
 * Where each job's processor is plugged in. The queue is below the features whose jobs it runs
 * (gc, compaction), so they register their processors here as they start instead of the queue
 * importing them; once the application is up, a job name without a processor fails the start
 * rather than the first job of that name.
 */
@Injectable()
export class JobProcessorRegistry implements OnApplicationBootstrap {
  private readonly registered: Partial<JobProcessors> = {};

  /** Every job name, each looking up its processor when a job runs. */
  readonly processors: JobProcessors = Object.fromEntries(
    JOB_NAMES.map((name) => [name, (payload: never, run: never) => this.processor(name)(payload, run)]),
  ) as JobProcessors;

  register<N extends JobName>(name: N, processor: JobProcessors[N]): void {
    if (this.registered[name]) throw new Error(`a processor for job '${name}' is already registered`);
    this.registered[name] = processor as JobProcessors[JobName] as Partial<JobProcessors>[N];
  }

  onApplicationBootstrap(): void {
    checkProcessors(this.registered);
  }

  private processor<N extends JobName>(name: N): JobProcessors[N] {
    return checkProcessors(this.registered)[name];
  }
}
