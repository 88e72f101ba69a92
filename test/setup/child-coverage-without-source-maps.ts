/*
 * Loaded into each process a test starts with coverage (child-process-env.ts adds it to the
 * child's NODE_OPTIONS). Node fixes where a process writes its coverage when it starts; after
 * that it reads NODE_V8_COVERAGE only to decide whether to keep the source map of each module
 * it loads, to write them all beside the coverage at exit. Those maps were most of the suite's
 * coverage data (1.15 GB of 1.67 from the processes tests start, the SDK's maps with their
 * sources, about 3 MB a process), each read and parsed at load, written at exit and read again
 * by c8's report. c8 needs none of them: it reports on dist/core and dist/plugins, whose maps
 * it reads from the files beside them. So the variable is emptied here, once coverage runs.
 * The processes this one starts in turn then run without coverage, as a hub's stdio children
 * already do (the SDK passes them only a short list of variables).
 */
process.env.NODE_V8_COVERAGE = '';
