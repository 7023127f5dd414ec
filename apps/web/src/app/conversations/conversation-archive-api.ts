import { HttpClient } from '@angular/common/http';
import { inject, Injectable } from '@angular/core';
import { createHttpClient, type ListedConversation, type ListedConversationPage } from '@sweatpants/domain';

import { toApiError } from '../core/api-error';
import { angularTransport } from '../core/angular-transport';

/**
 * The routes that list conversations with whether each is archived, and unarchive, through
 * libs/domain's typed client on the app's HttpClient (so the auth interceptor applies) as
 * ApiService sends the others; ApiService's own list methods are typed without `archivedAt`.
 * Calls reject with an ApiError.
 */
@Injectable({ providedIn: 'root' })
export class ConversationArchiveApi {
  private readonly api = createHttpClient<Blob>({ transport: angularTransport(inject(HttpClient)) });

  /** The caller's archived conversations, most recently archived first. */
  archived(query: { limit?: number; before?: string } = {}): Promise<ListedConversationPage> {
    return this.call(this.api.listConversations({ query: { ...query, archived: true } }));
  }

  /** Back in the caller's list. */
  unarchive(id: string): Promise<ListedConversation> {
    return this.call(this.api.unarchiveConversation({ params: { id } }));
  }

  /** Everyone's conversations, each saying whether its owner archived it (admins only). */
  everyones(query: { userId?: string; limit?: number; before?: string }): Promise<ListedConversationPage> {
    return this.call(this.api.adminConversations({ query }));
  }

  private async call<T>(request: Promise<T>): Promise<T> {
    try {
      return await request;
    } catch (error: unknown) {
      throw toApiError(error);
    }
  }
}
