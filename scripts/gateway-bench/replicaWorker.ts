/**
 * A worker thread hosting one replica (`benchReplica.ts`), so each replica has its own event loop
 * as a separate process would: it starts the replica from `workerData` (a `ReplicaSpec`), posts
 * `{ url }`, then answers `counters`, `reset` and `close` messages.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startReplica, type ReplicaSpec } from './benchReplica.js';

export type ReplicaRequest = 'counters' | 'reset' | 'close';

const port = parentPort;
if (port === null) throw new Error('replicaWorker.ts runs in a worker thread');
const replica = await startReplica(workerData as ReplicaSpec);
port.on('message', (message: ReplicaRequest) => {
  if (message === 'counters') port.postMessage({ counters: replica.counters() });
  else if (message === 'reset') {
    replica.reset();
    port.postMessage({ reset: true });
  } else {
    void replica.close().then(() => port.postMessage({ closed: true }));
  }
});
port.postMessage({ url: replica.url });
