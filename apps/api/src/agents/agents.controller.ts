import { Controller, Get, Inject } from '@nestjs/common';
import type { AgentCatalog } from '@sweatpants/agent-runtime/host';
import type { AgentList } from '@sweatpants/domain';
import { AGENT_CATALOG } from './agent-catalog.module';

/** `GET /api/agents` (PROTOCOL.md, Conversations): the agents registered in this deployment. */
@Controller('agents')
export class AgentsController {
  constructor(@Inject(AGENT_CATALOG) private readonly agents: AgentCatalog) {}

  @Get()
  list(): AgentList {
    return { items: this.agents.list() };
  }
}
