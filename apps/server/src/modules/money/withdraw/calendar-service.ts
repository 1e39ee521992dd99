import { sql } from 'drizzle-orm';
import { CalendarDayType, ErrorCode, type BodyOf, type withdraw as api } from '@lynx/contract';
import type { Db } from '../../../db/client.ts';
import { audit } from '../../../platform/audit.ts';
import { AppError, invalid, notFound } from '../../../platform/errors.ts';
import { isStaff, type SessionContext } from '../../../platform/context.ts';
import { weekdayOf } from '../workdays.ts';

const rowsOf = <T>(r: unknown): T[] => ((r as { rows?: T[] }).rows ?? (r as T[]));

function dayOut(r: Record<string, unknown>) {
  return {
    day: String(r.day), kind: Number(r.kind), name: String(r.name), nameEn: (r.name_en as string | null) ?? null,
    provisional: Boolean(r.provisional), updatedBy: (r.updated_by as string | null) ?? null,
    updatedAt: new Date(r.updated_at as string).toISOString(),
  };
}
/** A date that exists ('2026-02-30' matches the pattern but is no day). */
function validDay(day: string): void {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const probe = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!m || !probe || probe.getUTCMonth() !== Number(m[2]) - 1 || probe.getUTCDate() !== Number(m[3])) {
    throw invalid('day', { zh: '日期不存在', en: 'No such date' });
  }
}

const COLS = sql`to_char(day, 'YYYY-MM-DD') as day, kind, name, name_en, provisional, updated_by, updated_at`;

/** The working-day calendar (holidays and make-up working days): everyone with a money page reads it, staff edit it. */
export class CalendarService {
  constructor(private db: Db) {}

  async list(year: number) {
    const rows = rowsOf<Record<string, unknown>>(await this.db.execute(sql`select ${COLS} from work_calendar
      where day >= ${`${year}-01-01`}::date and day <= ${`${year}-12-31`}::date order by day`));
    return rows.map(dayOut);
  }

  private check(b: BodyOf<typeof api.addCalendarDay>, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw new AppError(ErrorCode.CalendarStaffOnly);
    validDay(b.day);
    const name = b.name.trim();
    if (!name) throw invalid('name', { zh: '请填写名称', en: 'Enter a name' });
    const wd = weekdayOf(b.day);
    if (b.kind === CalendarDayType.MakeUpWorkday && wd !== 0 && wd !== 6) throw new AppError(ErrorCode.CalendarMakeUpNotWeekend, { day: b.day });
    return { name, nameEn: b.nameEn?.trim() || null };
  }

  async add(b: BodyOf<typeof api.addCalendarDay>, ctx: SessionContext) {
    const { name, nameEn } = this.check(b, ctx);
    return this.db.transaction(async (tx) => {
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`insert into work_calendar (day, kind, name, name_en, provisional, updated_by)
        values (${b.day}::date, ${b.kind}, ${name}, ${nameEn}, false, ${ctx.actor.loginName})
        on conflict (day) do nothing returning ${COLS}`));
      if (!row) throw new AppError(ErrorCode.CalendarDayExists, { day: b.day });
      const out = dayOut(row);
      await audit(tx, ctx, { entity: 'work_calendar', entityId: b.day, custId: null, rootCustId: null, after: out });
      return out;
    });
  }

  async update(b: BodyOf<typeof api.updateCalendarDay>, ctx: SessionContext) {
    const { name, nameEn } = this.check(b, ctx);
    return this.db.transaction(async (tx) => {
      const [before] = rowsOf<Record<string, unknown>>(await tx.execute(sql`select ${COLS} from work_calendar where day = ${b.day}::date for update`));
      if (!before) throw notFound();
      // an edit by staff confirms the day: it is no longer a provisional statutory date
      const [row] = rowsOf<Record<string, unknown>>(await tx.execute(sql`update work_calendar set kind = ${b.kind}, name = ${name}, name_en = ${nameEn},
        provisional = false, updated_by = ${ctx.actor.loginName}, updated_at = now() where day = ${b.day}::date returning ${COLS}`));
      const out = dayOut(row);
      await audit(tx, ctx, { entity: 'work_calendar', entityId: b.day, custId: null, rootCustId: null, before: dayOut(before), after: out });
      return out;
    });
  }

  async remove(day: string, ctx: SessionContext) {
    if (!isStaff(ctx.actor)) throw new AppError(ErrorCode.CalendarStaffOnly);
    validDay(day);
    await this.db.transaction(async (tx) => {
      const [before] = rowsOf<Record<string, unknown>>(await tx.execute(sql`delete from work_calendar where day = ${day}::date returning ${COLS}`));
      if (!before) throw notFound();
      await audit(tx, ctx, { entity: 'work_calendar', entityId: day, custId: null, rootCustId: null, before: dayOut(before) });
    });
    return null;
  }
}
