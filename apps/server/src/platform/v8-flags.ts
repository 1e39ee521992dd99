// V8 settings of the server process, applied by main.ts before anything else runs (docs/performance.md "Issue 14:
// bill list, card lines and the bill export", 2026-11-28).
//
// Allocation-site pretenuring off: a download task walks a million rows page by page, and V8's allocation-site
// feedback saw each page's rows survive a young collection (they live while the page is written) and began to
// allocate those objects straight into the old generation, where they are collected only by a full collection, which
// V8 schedules at up to about four times the live heap. The server then grew by 215-233 MB exporting a 1M-line bill
// as CSV and fell back after; with pretenuring off the same export grew 6-76 MB. Nothing in the server keeps objects
// long enough for pretenuring to pay back.
import v8 from 'node:v8';

export const SERVER_V8_FLAGS = ['--no-allocation-site-pretenuring'] as const;

for (const flag of SERVER_V8_FLAGS) v8.setFlagsFromString(flag);
