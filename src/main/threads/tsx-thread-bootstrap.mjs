// Loads a TypeScript worker entry when running from source (tsx, vitest): a new worker thread
// does not inherit tsx's hooks on Node 20, so register them here (tsx's documented
// programmatic API, `tsx/esm/api`) and then import the real entry. Unused in a bundled build.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.__entry);
