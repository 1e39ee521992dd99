// The header's global search (issue 12, docs/cards.md "Search"): one keyword, every kind the caller may open, each
// read by the module that owns it with the same tenant rule as its own list, side by side. Pages are found by the
// console from its route table.
import { search, type BodyOf, type ResponseOf } from '@lynx/contract';
import type { Db } from '../../db/client.ts';
import type { Actor } from '../../platform/context.ts';
import { CustomerService } from '../account/customers.ts';
import { searchBasicPlans } from '../plan/plan-service.ts';
import { searchRetailPlans } from '../plan/retail-service.ts';
import { PoolService } from '../pool/pool-service.ts';
import { searchBatches } from '../card/batch/service.ts';
import { searchCardImports } from '../card/import/import.ts';
import { searchCards } from '../card/list/card-search.ts';
import { isStaff } from '../../platform/context.ts';

type Result = ResponseOf<typeof search.globalSearch>;
const { SEARCH_KIND_ACCESS, SEARCH_LIMIT_DEFAULT, cardKeyword } = search;

/** The caller may open this kind's screen: one of its codes, and not a role it is hidden from. */
export function maySearch(actor: Actor, kind: search.SearchKind): boolean {
  const access = SEARCH_KIND_ACCESS[kind];
  if ((access.hiddenFor as readonly number[]).includes(actor.roleType)) return false;
  if (kind === 'cardImport' && !isStaff(actor)) return false;
  return access.perms.some((p) => actor.permissions.has(p));
}

export class GlobalSearchService {
  private customers: CustomerService;
  private pools: PoolService;

  constructor(private db: Db) {
    this.customers = new CustomerService(db);
    this.pools = new PoolService(db);
  }

  async search(b: BodyOf<typeof search.globalSearch>, actor: Actor): Promise<Result> {
    const keyword = b.keyword.trim();
    const limit = b.limit ?? SEARCH_LIMIT_DEFAULT;
    const card = cardKeyword(keyword);
    /** a kind's items (asked for one more than shown, to know whether there are more), or null when not searched */
    const section = async <T>(kind: search.SearchKind, run: (n: number) => Promise<T[]>) => {
      if (!keyword || !maySearch(actor, kind)) return null;
      const rows = await run(limit + 1);
      return { items: rows.slice(0, limit), more: rows.length > limit };
    };
    const [cards, customers, basicPlans, retailPlans, pools, batches, cardImports] = await Promise.all([
      card.kind === 'search' && maySearch(actor, 'card') ? searchCards(this.db, actor, card.digits, limit) : null,
      section('customer', (n) => this.customers.search(actor, keyword, n)),
      section('basicPlan', (n) => searchBasicPlans(this.db, actor, keyword, n)),
      section('retailPlan', (n) => searchRetailPlans(this.db, actor, keyword, n)),
      section('pool', (n) => this.pools.search(actor, keyword, n)),
      section('batch', (n) => searchBatches(this.db, actor, keyword, n)),
      section('cardImport', (n) => searchCardImports(this.db, keyword, n)),
    ]);
    return {
      cardDigits: cards ? (card as { digits: string }).digits : null,
      cardDigitsShort: card.kind === 'short' && maySearch(actor, 'card'),
      cards, customers, basicPlans, retailPlans, pools, batches, cardImports,
    };
  }
}
