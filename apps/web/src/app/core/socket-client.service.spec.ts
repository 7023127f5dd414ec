import { provideHttpClient } from '@angular/common/http';
import { HttpTestingController, provideHttpClientTesting } from '@angular/common/http/testing';
import { Component } from '@angular/core';
import { TestBed } from '@angular/core/testing';
import { provideRouter, Router } from '@angular/router';

import { SessionService } from './session.service';
import { SocketClientService, type TypedSocket } from './socket-client.service';

@Component({ template: '' })
class BlankComponent {}

const user = {
  id: 'u-1',
  email: 'robin@example.com',
  displayName: 'Robin',
  role: 'user' as const,
  emailVerified: true,
};
const unauthenticated = {
  error: { code: 'unauthenticated', message: 'the session has ended: sign in again' },
};

/** A socket whose handshake the test decides: it asks `auth` for the token as Socket.IO does. */
class HandshakeSocket {
  auth: unknown = null;
  connected = false;
  readonly handshakes: string[] = [];
  private readonly listeners = new Map<string, ((arg?: unknown) => void)[]>();

  on(event: string, listener: (arg?: unknown) => void): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
    return this;
  }
  off(): this {
    return this;
  }
  disconnect(): this {
    this.connected = false;
    return this;
  }
  /** socket.connect(): the next handshake, with whatever token `auth` gives now. */
  connect(): this {
    (this.auth as (send: (data: { token: string }) => void) => void)((data) =>
      this.handshakes.push(data.token),
    );
    return this;
  }
  accept(): void {
    this.connected = true;
    this.fire('connect');
  }
  refuse(): void {
    this.fire(
      'connect_error',
      Object.assign(new Error('a valid token is required'), { data: { code: 'unauthenticated' } }),
    );
  }
  serverDisconnects(): void {
    this.connected = false;
    this.fire('disconnect', 'io server disconnect');
  }
  private fire(event: string, arg?: unknown): void {
    for (const listener of this.listeners.get(event) ?? []) listener(arg);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

async function setup() {
  TestBed.configureTestingModule({
    providers: [
      provideHttpClient(),
      provideHttpClientTesting(),
      provideRouter([
        { path: 'sign-in', component: BlankComponent },
        { path: 'c/:id', component: BlankComponent },
      ]),
    ],
  });
  const router = TestBed.inject(Router);
  await router.navigateByUrl('/c/abc');
  const session = TestBed.inject(SessionService);
  session.start({ token: 'old-token', user });
  const socket = new HandshakeSocket();
  const client = TestBed.inject(SocketClientService);
  client.useFactory(() => socket as unknown as TypedSocket);
  let connects = 0;
  client.onConnect(() => (connects += 1));
  client.connect();
  socket.connect();
  socket.accept();
  return {
    session,
    router,
    socket,
    client,
    backend: TestBed.inject(HttpTestingController),
    connects: () => connects,
  };
}

describe('SocketClientService and an ended access token', () => {
  afterEach(() => {
    TestBed.inject(HttpTestingController).verify();
    localStorage.clear();
  });

  it('keeps one socket across refreshes, and a reconnect sends the fresh token', async () => {
    const { session, socket, client } = await setup();
    session.start({ token: 'fresh-token', user });
    expect(client.connect()).toBe(socket as unknown as TypedSocket);
    socket.connect();
    expect(socket.handshakes).toEqual(['old-token', 'fresh-token']);
  });

  it('refreshes once when a reconnect is refused, and connects again with the fresh token', async () => {
    const { socket, backend, client, connects } = await setup();
    socket.connect();
    socket.refuse();
    await tick();
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await tick();
    expect(socket.handshakes).toEqual(['old-token', 'old-token', 'fresh-token']);
    socket.accept();
    expect(client.connected()).toBe(true);
    expect(connects()).toBe(2); // listeners rejoin their rooms
  });

  it('sends the person to sign in, back to their conversation afterwards, when the api closes the socket and the session is over', async () => {
    const { socket, backend, session, router } = await setup();
    socket.serverDisconnects();
    await tick();
    backend
      .expectOne('/api/auth/refresh')
      .flush(unauthenticated, { status: 401, statusText: 'Unauthorized' });
    await tick();
    expect(session.signedIn()).toBe(false);
    expect(router.url).toBe('/sign-in?signedOut=expired&returnUrl=%2Fc%2Fabc');
    expect(socket.handshakes).toEqual(['old-token']);
  });

  it('gives up when the fresh token is refused too', async () => {
    const { socket, backend, session } = await setup();
    socket.connect();
    socket.refuse();
    await tick();
    backend.expectOne('/api/auth/refresh').flush({ token: 'fresh-token', user });
    await tick();
    socket.refuse();
    await tick();
    backend.expectNone('/api/auth/refresh');
    expect(session.signedIn()).toBe(false);
  });

  it('closes the socket when the session ends', async () => {
    const { socket, session, client } = await setup();
    session.end();
    TestBed.tick();
    expect(socket.connected).toBe(false);
    expect(client.connected()).toBe(false);
  });
});
