// The ceiling every benchmark is compared with: a bare Fastify handler, in its own process.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { hello: 'world' };
app.get('/', async () => body);
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address();
console.log(`baseline http://127.0.0.1:${port}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
