export * from './auth';
export * from './error';
export * from './conversation-api';
export * from './conversation-command';
export * from './socket-events';
export * from './jobs';
export * from './gc';
export * from './http';
