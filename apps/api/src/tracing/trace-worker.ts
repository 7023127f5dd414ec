import { startTracing } from './tracing-sdk';

// worker.ts's first import: the SDK starts (when configured) before pg, ioredis and express load.
startTracing(process.env, 'sweatpants-worker');
