import { Inject, Injectable } from '@nestjs/common';
import { providePhotoStore, type AgentCatalog, type PhotoStore } from '@sweatpants/agent-runtime/host';
import { provideActivityStore } from '@sweatpants/agent-concierge';
import type { ConversationRecord } from '@sweatpants/domain';
import type { Operation } from 'effection';
import { PhotoIntake } from '../blobs/photo-intake';
import { PgActivityStores } from '../concierge/pg-activity-store';
import type { AgentEntry } from './agent-entry';
import { AGENT_CATALOG } from './agent-catalog.module';

/**
 * The agents conversations run (the program's AgentCatalog, with their offline rules), and the
 * services this deployment offers their tools: the activity store the concierge's tools read,
 * bound to the conversation's owner so no owner's tools read another's rows, and the photo store
 * that keeps the images a tool gets (an MCP server's) as a person's photos are kept.
 */
@Injectable()
export class AgentRegistry {
  /** An image a tool got, checked and stored as a person's photo is; one refused is not kept. */
  private readonly photos: PhotoStore;

  constructor(
    @Inject(AGENT_CATALOG) private readonly catalog: AgentCatalog,
    private readonly activities: PgActivityStores,
    intake: PhotoIntake,
  ) {
    this.photos = { keep: (image) => intake.store(image, 'image').catch(() => null) };
  }

  /** The agent a conversation runs; one no longer registered here is an error of the deployment. */
  get(name: ConversationRecord['agent']): AgentEntry {
    const entry = this.catalog.get(name);
    if (!entry)
      throw new Error(`conversations of agent ${name} cannot run: no agent of that name is registered`);
    return { definition: entry.definition, offlineRules: entry.offlineRules ?? [] };
  }

  /**
   * What the Runner's `provide` option sets at the top of every turn: every service, for every
   * agent, so an agent is not picked out by name and a new one whose tools read a store finds it.
   * An agent whose tools read none is unaffected (a context it never asks for).
   */
  servicesFor(conversation: ConversationRecord): () => Operation<void> {
    const activities = provideActivityStore(this.activities.forOwner(conversation.ownerId));
    const photos = providePhotoStore(this.photos);
    return function* () {
      yield* activities();
      yield* photos();
    };
  }
}
