import { Module } from '@nestjs/common';
import { productAgents } from '@sweatpants/product-agents';

/** Injection token of the program's AgentCatalog: the agents this deployment runs. */
export const AGENT_CATALOG = Symbol('AgentCatalog');

/**
 * The agents registered at the program level (seed 004's `server.use`): the api and the worker
 * each build the catalog once. An agent is added by registering it in `productAgents()`.
 */
@Module({
  providers: [{ provide: AGENT_CATALOG, useFactory: productAgents }],
  exports: [AGENT_CATALOG],
})
export class AgentCatalogModule {}
