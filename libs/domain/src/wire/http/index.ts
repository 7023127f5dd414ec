export * from './route';
export * from './response-schemas';
export * from './contract';
export * from './client';
export * from './conversation-archive';
