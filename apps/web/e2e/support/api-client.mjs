// The api over plain HTTP, for setting up a scenario quickly (PROTOCOL.md). The scenario then
// checks what the browser shows. Calls go through libs/domain's typed client, which checks each
// answer against the HTTP contract and rejects a non-2xx with an HttpApiError (`status`, `body`).

import http from '../../../../libs/domain/src/wire/http/load.cjs';

const { createHttpClient } = http;

export class ApiClient {
  constructor(base) {
    this.base = base;
  }

  /** The typed client signed in with `token` (none for register). */
  as(token) {
    return createHttpClient({ baseUrl: this.base, ...(token ? { token } : {}), validate: true });
  }

  /** Any request as is, for what a scenario sends beyond the typed routes. */
  async call(method, path, { token, body } = {}) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    const json = text ? JSON.parse(text) : null;
    if (!res.ok) {
      const error = new Error(`${method} ${path} → ${res.status} ${text.slice(0, 300)}`);
      error.status = res.status;
      throw error;
    }
    return json;
  }

  register(email, displayName = 'E2E person', password = 'correct horse battery') {
    return this.as().register({ body: { email, password, displayName } });
  }

  createConversation(token, agent, title) {
    return this.as(token).createConversation({ body: title ? { agent, title } : { agent } });
  }

  conversation(token, id) {
    return this.as(token).conversation({ params: { id } });
  }

  path(token, id, at = 'HEAD') {
    return this.as(token).path({ params: { id }, query: { at } });
  }

  reflog(token, id) {
    return this.as(token).reflog({ params: { id }, query: { limit: 100 } });
  }

  rewind(token, id, to) {
    return this.as(token).rewind({ params: { id }, body: { to } });
  }

  /** Waits until the agent is not running and, unless told otherwise, asks something. */
  async settle(token, id, { needElicit = true, timeoutMs = 45_000 } = {}) {
    const deadline = Date.now() + timeoutMs;
    let last = null;
    while (Date.now() < deadline) {
      last = await this.conversation(token, id);
      if (last.status !== 'running' && (!needElicit || last.pendingElicit)) return last;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    throw new Error(`conversation ${id} did not settle: ${JSON.stringify(last)?.slice(0, 300)}`);
  }

  respond(token, id, elicitId, body) {
    return this.as(token).respond({ params: { id, elicitId }, body });
  }

  /** Answers questions that are not the chat prompt (the first card, or decline) until the chat prompt is back. */
  async answerUntilChat(token, id) {
    let conversation = await this.settle(token, id);
    for (let i = 0; i < 6 && conversation.pendingElicit && conversation.pendingElicit.type !== 'chat'; i++) {
      const pending = conversation.pendingElicit;
      const body =
        pending.type === 'propose-disposition'
          ? {
              action: 'accept',
              content: { disposition: pending.payload.choices[0].disposition, wasCorrection: false },
            }
          : { action: 'decline' };
      await this.respond(token, id, pending.elicitId, body);
      conversation = await this.settle(token, id);
    }
    return conversation;
  }

  /** Sends a message the way the client does: the answer to the pending chat elicit, or POST messages. */
  async say(token, id, text) {
    const conversation = await this.answerUntilChat(token, id);
    const pending = conversation.pendingElicit;
    if (pending?.type === 'chat') {
      await this.respond(token, id, pending.elicitId, { action: 'accept', content: { text } });
    } else {
      await this.as(token).sendMessage({ params: { id }, body: { text } });
    }
    return this.settle(token, id);
  }
}
