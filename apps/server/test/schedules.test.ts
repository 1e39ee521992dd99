import { describe, it, expect } from 'vitest';
import type { Config } from '../src/config.ts';
import { USAGE_FEED_QUEUE } from '../src/modules/usage/usage-routes.ts';
import { POOL_CHECK_QUEUE } from '../src/modules/pool/pool-usage.ts';
import { MAINTENANCE_QUEUE } from '../src/platform/maintenance.ts';
import { RETIRED_QUOTA_LEVELS_QUEUE } from '../src/modules/home/routes.ts';
import { SMS_MO_QUEUE } from '../src/modules/sms/mo-feed.ts';
import { backends, seededInstallation, type Backend } from './harness.ts';
import { AUTORULE_FEED_QUEUE } from '../src/modules/automation/routes.ts';
import { DSIM_STRATEGY_QUEUE } from '../src/modules/dsim/routes.ts';

/**
 * One database that several server starts in a row open, like restarts of one installation with changed settings
 * (from the seeded image: the test pays for the five starts, not for a first start's migrations and seed).
 */
async function installation(backend: Backend) {
  const db = await seededInstallation(backend);
  return {
    /** Starts a server with these settings (its jobs too), and returns the schedules in the database after the start. */
    async start(overrides: Partial<Config>): Promise<string[]> {
      const t = await db.open(overrides);
      try {
        const rows = await t.database.sql.query<{ name: string }>('select name from pgboss.schedule order by name');
        return rows.map((r) => r.name);
      } finally {
        await t.stop();
      }
    },
    remove: () => db.remove(),
  };
}

describe.each(backends)('job schedules that configuration turns off, on %s', (backend) => {
  it('CMP_USAGE_FEED_MINUTES=0 removes the feed and pool check schedules an earlier start left; CMP_WORKERS=off touches none', async () => {
    const db = await installation(backend);
    try {
      const feedOn = await db.start({ usageFeedMinutes: 5 });
      expect(feedOn).toEqual(expect.arrayContaining([USAGE_FEED_QUEUE, POOL_CHECK_QUEUE, SMS_MO_QUEUE, MAINTENANCE_QUEUE]));
      // the interim near / over quota job is gone (the cards carry their cycle usage, migration 0019)
      expect(feedOn).not.toContain(RETIRED_QUOTA_LEVELS_QUEUE);

      // an API-only process configured without the feed leaves the workers' schedules alone ...
      expect(await db.start({ usageFeedMinutes: 0, runWorkers: false })).toEqual(feedOn);

      // ... a process that runs the jobs removes them, and only them
      const feedOff = await db.start({ usageFeedMinutes: 0, runWorkers: true });
      expect(feedOff).not.toContain(USAGE_FEED_QUEUE);
      expect(feedOff).not.toContain(POOL_CHECK_QUEUE);
      expect(feedOff).not.toContain(SMS_MO_QUEUE);
      // the automation rules' check and the super SIM strategies after each feed window follow the feed too
      // (docs/automation.md, docs/super-sim.md)
      const followFeed = [USAGE_FEED_QUEUE, POOL_CHECK_QUEUE, SMS_MO_QUEUE, AUTORULE_FEED_QUEUE, DSIM_STRATEGY_QUEUE];
      expect(feedOff).toEqual(feedOn.filter((n) => !followFeed.includes(n)));

      // an API-only process with the feed on does not bring them back; the workers do
      expect(await db.start({ usageFeedMinutes: 5, runWorkers: false })).toEqual(feedOff);
      expect(await db.start({ usageFeedMinutes: 5, runWorkers: true })).toEqual(feedOn);
    } finally {
      await db.remove();
    }
  }, 300_000); // five server starts: minutes on a busy 2-core machine
});
