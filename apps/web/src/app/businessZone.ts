import { DEFAULT_TIME_ZONE, isValidTimeZone, setBusinessTimeZone } from '@lynx/contract';
import type { QueryClient } from '@tanstack/react-query';
import { currentLogoCustId, logoQuery } from '../layout/useLogo.ts';

/**
 * Learns the product's business time zone from the server's public settings before the console shows a time
 * (docs/time-zone.md): every time is shown, and every picked day is meant, in that zone, never the browser's.
 * The answer stays in the query cache, where the login page and the side menu find their logo without asking again.
 */
export async function learnBusinessZone(queryClient: QueryClient): Promise<string> {
  const settings = await queryClient.fetchQuery(logoQuery(currentLogoCustId())).catch(() => null);
  const zone = isValidTimeZone(settings?.timeZone) ? settings.timeZone : DEFAULT_TIME_ZONE;
  setBusinessTimeZone(zone);
  return zone;
}
