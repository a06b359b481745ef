// The trace's writer thread (trace-writer.ts starts it): its own connection to the platform's
// database, and the trace's store (trace-store.ts) serving the batches the event loop sends.
import { parentPort, workerData } from 'node:worker_threads';
import { openDb } from './db.js';
import { TraceStore } from './trace-store.js';
import { serveTrace, type FromWriter, type ToWriter, type TraceWorkerData } from './trace-writer.js';

const data = workerData as TraceWorkerData;
const db = openDb(data.location);
const reply = (m: FromWriter) => parentPort!.postMessage(m);
const store = new TraceStore(db, data.settings, (message, err) =>
  reply({ t: 'warn', message, error: err instanceof Error ? err.message : String(err) }),
);
store.setSecretPaths(data.secretPaths);
const serve = serveTrace(store, () => db.close(), reply);
parentPort!.on('message', (m: ToWriter) => serve(m));
