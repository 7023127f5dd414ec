import { Controller, Get } from '@nestjs/common';
import type { Health, Liveness, Readiness } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';
import { HealthService } from './health.service';

@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** `GET /api/health`: 200 with what the api runs on, or 503 when the db or Redis is down. */
  @Get()
  check(): Promise<Health> {
    return this.health.check();
  }

  /** `GET /api/health/live`: 200 while the process runs. */
  @Get('live')
  live(): Liveness {
    return this.health.live();
  }

  /** `GET /api/health/ready`: 200 when it can serve, else 503 naming what is not ready. */
  @Get('ready')
  ready(): Promise<Readiness> {
    return this.health.ready();
  }
}
