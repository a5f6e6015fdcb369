/**
 * The team dashboard: `StatsTimeline` keeps per-user counters over time (fed with each request's
 * stored proxy record, merged across replicas by adding deltas), `teamStats` is `/dense/stats`,
 * `dashboardPage` renders `/dense/dashboard` from it.
 */
export {
  StatsTimeline,
  normalBucketMs,
  type SeriesPointFigures,
  type SeriesRange,
  type StatsTimelineOptions,
  type TeamStatsJson,
  type TeamStatsOptions,
  type TeamStatsScope,
  type TimelinePoint,
} from './StatsTimeline.js';
export { DEFAULT_COMPACTION_WAIT_MS, ZERO_COUNTERS, type StatsCounters } from './statsCounters.js';
export {
  StatsDeltaError,
  parseStatsDelta,
  type CountersJson,
  type StatsDelta,
  type UserDelta,
} from './statsDelta.js';
export type { StatsFigures } from './statsFigures.js';
export { HOUR_MS, MINUTE_MS } from './BucketStore.js';
export { dashboardPage, DashboardScopeError, type DashboardOptions } from './dashboardPage.js';
export { RedisStats, type RedisStatsOptions } from './RedisStats.js';
