import { Module } from '@nestjs/common';
import { BlobsModule } from '../blobs/blobs.module';
import { ConciergeModule } from '../concierge/concierge.module';
import { AgentCatalogModule } from './agent-catalog.module';
import { AgentRegistry } from './agent-registry';
import { AgentsController } from './agents.controller';

/** The registered agents over HTTP, and what running them needs (AgentRegistry). */
@Module({
  imports: [AgentCatalogModule, BlobsModule, ConciergeModule],
  controllers: [AgentsController],
  providers: [AgentRegistry],
  exports: [AgentCatalogModule, AgentRegistry],
})
export class AgentsModule {}
