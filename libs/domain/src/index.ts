export * from './health';
export * from './node';
export * from './reflog';
export * from './ref';
export * from './conversation';
export * from './result';
export * from './elicit';
export * from './wire';
