/**
 * `mcp-switchyard/plugin/store`: the store port (MongoDB or the embedded default, one
 * contract) and the counters built on it, shared by replicas.
 */
export { DuplicateKeyError, type Store, type StoreCollection } from '../store/index.js';
export { msUntilBelow, slidingEstimate, WindowCounter } from '../limits/window-counter.js';
