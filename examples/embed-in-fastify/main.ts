import { buildApp } from './app.js';

const app = await buildApp(process.env as Record<string, string>);
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
process.stdout.write(`listening: GET /hello (the app) and GET /tools/health (the hub)\n`);
