// A separate process that opens the store the way the hub does and performs one
// operation: the contract test uses it for durability and cross-process behaviour.
//   node store-process.js insert <collection> <json>
//   node store-process.js rotate <collection> <_id> <from> <to>   (prints won or lost)
import { openStore } from '../../../core/store/index.js';

const [command, name, ...rest] = process.argv.slice(2);
const store = await openStore({ dataPath: process.env.DATA_PATH ?? '', mongodbUrl: process.env.MONGODB_URL });
try {
  const collection = store.collection<{ _id: string; current?: string }>(name ?? '');
  if (command === 'insert') {
    await collection.insertOne(JSON.parse(rest[0] ?? '{}') as { _id: string });
  } else if (command === 'rotate') {
    const [id = '', from, to] = rest;
    const won = await collection.findOneAndUpdate({ _id: id, current: from }, { $set: { current: to } });
    process.stdout.write(won ? 'won' : 'lost');
  } else {
    throw new Error(`unknown command ${command}`);
  }
} finally {
  await store.close();
}
