import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { TestBed } from '@angular/core/testing';

import { ApiError } from './api-error';
import { ApiService } from './api.service';

const NODE = 'b'.repeat(64);

function setup() {
  TestBed.configureTestingModule({ providers: [provideHttpClient(), provideHttpClientTesting()] });
  return { api: TestBed.inject(ApiService), http: TestBed.inject(HttpTestingController) };
}

/** Lets the client's promise chain reach HttpClient before the test looks for the request. */
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ApiService', () => {
  afterEach(() => TestBed.inject(HttpTestingController).verify());

  it('sends each call as the HTTP contract declares its route', async () => {
    const { api, http } = setup();
    const answer = api.edit('c 1', NODE, { text: 'hi' });
    await tick();
    const request = http.expectOne(`/api/conversations/c%201/nodes/${NODE}/edit`);
    expect([request.request.method, request.request.body]).toEqual(['POST', { text: 'hi' }]);
    request.flush({ node: { id: NODE }, head: NODE }, { status: 201, statusText: 'Created' });
    await expect(answer).resolves.toEqual({ node: { id: NODE }, head: NODE });
  });

  it('leaves unset query values out', async () => {
    const { api, http } = setup();
    const answer = api.listConversations({ q: '', limit: 20 });
    await tick();
    http.expectOne('/api/conversations?limit=20').flush({ items: [], next: null });
    await expect(answer).resolves.toEqual({ items: [], next: null });
  });

  it('follows the tree’s cursor to its last page', async () => {
    const { api, http } = setup();
    const answer = api.owner.tree('c1');
    await tick();
    http.expectOne('/api/conversations/c1/tree?limit=500').flush({ nodes: [{ id: 'a' }], next: 'a' });
    await tick();
    http
      .expectOne('/api/conversations/c1/tree?after=a&limit=500')
      .flush({ nodes: [{ id: 'b' }], next: null });
    await expect(answer).resolves.toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('resolves a 204 with nothing and a photo as a Blob', async () => {
    const { api, http } = setup();
    const archived = api.archive('c1');
    await tick();
    http.expectOne('/api/conversations/c1').flush(null, { status: 204, statusText: 'No Content' });
    await expect(archived).resolves.toBeUndefined();
    const photo = api.blob(NODE);
    await tick();
    const request = http.expectOne(`/api/blobs/${NODE}`);
    expect(request.request.responseType).toBe('blob');
    request.flush(new Blob(['png']));
    expect(await photo).toBeInstanceOf(Blob);
  });

  it("rejects with an ApiError in PROTOCOL.md's shape, and words a call that got no answer", async () => {
    const { api, http } = setup();
    const conflict = api.rewind('c1', { to: 'HEAD~1' });
    await tick();
    http
      .expectOne('/api/conversations/c1/rewind')
      .flush(
        { error: { code: 'conflict', message: 'HEAD moved', details: { head: NODE } } },
        { status: 409, statusText: 'Conflict' },
      );
    const error = await conflict.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'conflict', message: 'HEAD moved' });

    const offline = api.me();
    await tick();
    http.expectOne('/api/auth/me').error(new ProgressEvent('error'), { status: 0 });
    await expect(offline).rejects.toMatchObject({ status: 0, code: 'internal' });
  });
});
