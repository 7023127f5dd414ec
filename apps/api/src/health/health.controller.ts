import { Controller } from '@nestjs/common';
import { HTTP_CONTRACT } from '@sweatpants/domain';
import { Public } from '../auth/auth.decorators';
import { Endpoint, type EndpointReply, type EndpointResult } from '../http/endpoint';
import { HealthService } from './health.service';

const { health, liveness, readiness } = HTTP_CONTRACT;

@Public()
@Controller()
export class HealthController {
  constructor(private readonly health: HealthService) {}

  /** `GET /api/health`: 200 with what the api runs on, or 503 when the db or Redis is down. */
  @Endpoint(health)
  check(): EndpointResult<typeof health> {
    return this.health.check();
  }

  /** `GET /api/health/live`: 200 while the process runs. */
  @Endpoint(liveness)
  live(): EndpointReply<typeof liveness.reply> {
    return this.health.live();
  }

  /** `GET /api/health/ready`: 200 when it can serve, else 503 naming what is not ready. */
  @Endpoint(readiness)
  ready(): EndpointResult<typeof readiness> {
    return this.health.ready();
  }
}
