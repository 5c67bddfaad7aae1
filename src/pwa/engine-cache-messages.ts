/** What the service worker tells open pages while it caches a group of engine files (src/sw.ts). */
import type { EngineGroup } from './engine-files.ts';

export type EngineCacheMessage =
  /** `held`: waiting while a tool works in an open window (HOLD_ENGINE_DOWNLOADS). */
  | { type: 'engine-cache-progress'; group: EngineGroup; done: number; total: number; held?: boolean }
  | { type: 'engine-cache-finished'; group: EngineGroup; done: number; total: number; failed: number };
