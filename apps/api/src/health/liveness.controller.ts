import { Controller, Get } from '@nestjs/common';
import type { Liveness } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';

/**
 * `GET /api/health/live` for a process that serves nothing else: the worker. 200 while it runs;
 * a worker is ready whenever it is live (it takes jobs when it can, and they wait in Redis until).
 */
@Public()
@Controller('health')
export class LivenessController {
  @Get('live')
  live(): Liveness {
    return { status: 'ok' };
  }
}
