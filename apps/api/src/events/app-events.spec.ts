import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppEvents, OnAppEvent, type AppEventMap } from './app-events';
import { EventsModule } from './events.module';

const heard: string[] = [];

@Injectable()
class Driver {
  @OnAppEvent('lease.lost')
  stopDriving({ conversationId }: AppEventMap['lease.lost']): void {
    heard.push(`driver stops ${conversationId}`);
  }
}

@Injectable()
class Clumsy {
  @OnAppEvent('lease.lost')
  trip(): void {
    throw new Error('tripped');
  }

  @OnAppEvent('compaction.requested')
  async enqueue({ head }: AppEventMap['compaction.requested']): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 10));
    heard.push(`queued ${head}`);
  }
}

@Injectable()
class Sockets {
  @OnAppEvent('lease.lost')
  forget({ conversationId }: AppEventMap['lease.lost']): void {
    heard.push(`sockets forget ${conversationId}`);
  }
}

@Module({ imports: [EventsModule], providers: [Driver, Clumsy, Sockets] })
class Host {}

describe('the in-process event map', () => {
  beforeEach(() => heard.splice(0));

  it('finds every marked handler at start and tells each, in order, even past one that throws', async () => {
    const app = await NestFactory.createApplicationContext(Host, { logger: false });
    const events = app.get(AppEvents);

    events.emit('lease.lost', { conversationId: 'c-1' });

    expect(heard).toEqual(['driver stops c-1', 'sockets forget c-1']);
    expect(events.heard('token.revoked')).toBe(false);
    await app.close();
  });

  it('waits for asynchronous handlers when asked to (emitAsync), not otherwise', async () => {
    const app = await NestFactory.createApplicationContext(Host, { logger: false });
    const events = app.get(AppEvents);

    events.emit('compaction.requested', { conversationId: 'c-1', head: 'h1' });
    expect(heard).toEqual([]);
    await events.emitAsync('compaction.requested', { conversationId: 'c-1', head: 'h2' });
    expect(heard).toContain('queued h2');
    await app.close();
  });

  it('takes a handler added by hand, and forgets it when told', async () => {
    const app = await NestFactory.createApplicationContext(Host, { logger: false });
    const events = app.get(AppEvents);
    const revoked: string[] = [];
    const off = events.on('token.revoked', ({ userId }) => void revoked.push(userId));

    events.emit('token.revoked', { userId: 'u-1' });
    off();
    events.emit('token.revoked', { userId: 'u-2' });

    expect(revoked).toEqual(['u-1']);
    await app.close();
  });
});
