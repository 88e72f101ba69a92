// One row of library-footprint.ts: a Node process that imports the modules given as file
// URLs, says "ready" and idles until it is killed, for the bench to weigh it from outside
// (through its inspector and /proc), as it weighs the hub. With no argument: an empty Node
// process, the baseline every row is compared with.
for (const url of process.argv.slice(2)) await import(url);
process.stdout.write('ready\n');
setInterval(() => undefined, 2 ** 30);
