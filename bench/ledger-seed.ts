/**
 * The ledger bench data (bench/ledger.ts, bench/accounting-report.ts): `customers` first-level customers named
 * "Bench customer 00001"… and `journals` journals of two postings each (every 5th a charge, the rest top-ups; the
 * customers in turn; spread over the last 400 days, one every 6.912 s at 5,000,000), with running balances and the
 * projection, written in SQL. Does nothing when the customers are there already.
 */
import pg from 'pg';
import { JournalKind } from '@lynx/contract';

type Query = <T>(text: string) => Promise<T[]>;

export async function seedLedger(url: string, q: Query, CUSTOMERS: number, JOURNALS: number): Promise<void> {
  const [{ n: have }] = await q<{ n: string }>(`select count(*) as n from customers where cust_name like 'Bench customer %'`);
  if (Number(have) < CUSTOMERS) {
    const t0 = Date.now();
    console.log(`seeding ${CUSTOMERS.toLocaleString('en')} customers and ${(JOURNALS * 2).toLocaleString('en')} postings (a few minutes)`);
    // one connection: the temporary tables live in its session; VACUUM runs outside a transaction
    const seeder = new pg.Client({ connectionString: url });
    await seeder.connect();
    const steps = [
      `insert into customers (cust_name, root_cust_id, level, status, admin_name, admin_email, admin_phone, payment_model)
       select 'Bench customer ' || lpad(g::text, 5, '0'), 0, 1, 2, 'Bench', 'bench@example.com', '13800138000', 1
       from generate_series(1, ${CUSTOMERS}) g`,
      `update customers set root_cust_id = cust_id where cust_name like 'Bench customer %'`,
      `create temporary table bench_cust as
         select row_number() over (order by cust_id) - 1 as i, cust_id from customers where cust_name like 'Bench customer %'`,
      // every 5th journal a charge, the rest top-ups; customers in turn; over the last 400 days
      `insert into ledger_journals (kind, cust_id, root_cust_id, ref_type, ref_id, created_by, created_at)
       select case when g % 5 = 0 then ${JournalKind.Spend} else ${JournalKind.Recharge} end, c.cust_id, c.cust_id, 'bench', g::text, 'bench',
         now() - ((${JOURNALS} - g) * interval '6912 milliseconds')
       from generate_series(1, ${JOURNALS}) g join bench_cust c on c.i = g % ${CUSTOMERS}
       order by g`,
      `create temporary table bench_lines as
         select journal_id, cust_id, kind, created_at,
           case when kind = ${JournalKind.Spend} then -((journal_id % 50) + 1)::numeric(16, 2) else (100 + journal_id % 97)::numeric(16, 2) end as amt
         from ledger_journals where ref_type = 'bench'`,
      `insert into ledger_postings (journal_id, cust_id, account, kind, amount, balance_after, created_at)
       select journal_id, cust_id, 1, kind, amt, sum(amt) over (partition by cust_id order by journal_id), created_at from bench_lines order by journal_id`,
      `insert into ledger_postings (journal_id, cust_id, account, kind, amount, balance_after, created_at)
       select journal_id, null, case when kind = ${JournalKind.Spend} then 104 else 101 end, kind, -amt, null, created_at from bench_lines order by journal_id`,
      `insert into customer_balances (cust_id, root_cust_id, pre_deposit, updated_at)
       select cust_id, cust_id, sum(amt), max(created_at) from bench_lines group by cust_id
       on conflict (cust_id) do update set pre_deposit = excluded.pre_deposit, updated_at = excluded.updated_at`,
      'vacuum (analyze) ledger_journals',
      'vacuum (analyze) ledger_postings',
      'vacuum (analyze) customer_balances',
      'vacuum (analyze) customers',
    ];
    for (const step of steps) {
      const s0 = Date.now();
      await seeder.query(step);
      console.log(`  ${step.trim().split('\n')[0].slice(0, 70)} … ${((Date.now() - s0) / 1000).toFixed(1)} s`);
    }
    await seeder.end();
    console.log(`seeded in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}
