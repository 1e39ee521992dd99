// Zone rules of a basic plan as the form checks them before saving (spec §5, §9). The messages are the
// server's own (contract error catalogue), so the form and the server say the same thing.
import { ErrorCode, errorMessage, PLAN_APN_MAX, PLAN_SERVICE_ADDRESS_MAX, PLAN_ZONE_MAX, PLAN_ZONE_SERVICE_MAX, type Lang } from '@lynx/contract';

export interface ServiceOption {
  commservId: number;
  name: string;
  qosCount: number;
  whitelistCount: number;
}

export interface ZoneValue {
  zoneName?: string;
  zoneNameEn?: string | null;
  regions?: string[];
  quotaMb?: number | null;
  /** decimal text, like every price on the form */
  price?: string | null;
  commservIds?: number[];
}

/** Whether one more zone may be added. */
export const canAddZone = (zones: readonly unknown[] | undefined) => (zones?.length ?? 0) < PLAN_ZONE_MAX;

/** The message for too many zones, or null. */
export function zonesProblem(zones: readonly ZoneValue[] | undefined, lang: Lang): string | null {
  return (zones?.length ?? 0) > PLAN_ZONE_MAX ? errorMessage(ErrorCode.PlanZoneTooMany, lang, { max: PLAN_ZONE_MAX }) : null;
}

/** The message for too many APNs, or null. */
export function apnProblem(apnIds: readonly number[] | undefined, lang: Lang): string | null {
  return (apnIds?.length ?? 0) > PLAN_APN_MAX ? errorMessage(ErrorCode.PlanApnTooMany, lang, { max: PLAN_APN_MAX }) : null;
}

/**
 * The first problem with the services of zone `index`: more than 40, a service chosen twice (in this zone
 * or another), an unknown service, one without QoS, one with more than 32 addresses. Null when fine.
 */
export function zoneServicesProblem(zones: readonly ZoneValue[], index: number, services: ReadonlyMap<number, ServiceOption>, lang: Lang): string | null {
  const zone = zones[index];
  const ids = zone?.commservIds ?? [];
  const zoneName = zone?.zoneName?.trim() || `#${index + 1}`;
  if (ids.length > PLAN_ZONE_SERVICE_MAX) return errorMessage(ErrorCode.PlanZoneServiceTooMany, lang, { zone: zoneName, max: PLAN_ZONE_SERVICE_MAX });
  const elsewhere = new Set(zones.flatMap((z, i) => (i === index ? [] : (z?.commservIds ?? []))));
  const seen = new Set<number>();
  for (const id of ids) {
    const s = services.get(id);
    if (seen.has(id) || elsewhere.has(id)) return errorMessage(ErrorCode.PlanServiceRepeated, lang, { zone: zoneName, name: s?.name ?? `#${id}` });
    seen.add(id);
    if (!s) return errorMessage(ErrorCode.PlanServiceMissing, lang, { zone: zoneName, id });
    if (s.qosCount < 1) return errorMessage(ErrorCode.PlanServiceNoQos, lang, { zone: zoneName, name: s.name });
    if (s.whitelistCount > PLAN_SERVICE_ADDRESS_MAX) {
      return errorMessage(ErrorCode.PlanServiceAddressTooMany, lang, { zone: zoneName, name: s.name, max: PLAN_SERVICE_ADDRESS_MAX });
    }
  }
  return null;
}

/** For each service: the index of the zone (other than `index`) already using it. */
export function usedElsewhere(zones: readonly ZoneValue[], index: number): Map<number, number> {
  const out = new Map<number, number>();
  zones.forEach((z, i) => {
    if (i !== index) for (const id of z?.commservIds ?? []) if (!out.has(id)) out.set(id, i);
  });
  return out;
}

/** A field path from the server (`zones.1.commservIds`) as the form's name path (['zones', 1, 'commservIds']). */
export const fieldPath = (field: string): (string | number)[] => field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p));
