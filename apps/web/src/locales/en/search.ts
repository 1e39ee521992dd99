import type zh from '../zh/search.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  placeholder: 'Search cards, customers, plans',
  label: 'Global search',
  searching: 'Searching…',
  noMatch: 'No card, customer, plan, pool, batch or page matches',
  noMatchOthers: 'No customer, plan, pool, batch or page matches',
  cardsNeedDigits: 'Type at least {{min}} digits to search cards (digits anywhere in the ICCID, MSISDN, IMSI or IMEI, such as the last digits printed on the SIM)',
  moreCards: 'More cards hold these digits: type more of them',
  moreOf: 'More {{kind}} match: type more of the name',
  enterHint: '↑ ↓ to choose, Enter to open',
  failed: 'Search failed: {{message}}',
  stock: 'Platform stock',
  groups: {
    cards: 'Cards',
    customers: 'Customers',
    basicPlans: 'Basic plans',
    retailPlans: 'Retail plans',
    pools: 'Pools',
    batches: 'Batch operations',
    cardImports: 'Card imports',
    pages: 'Pages',
  },
  fields: { iccid: 'ICCID', msisdn: 'MSISDN', imsi: 'IMSI', imei: 'IMEI' },
  how: { exact: 'exact', suffix: 'ends with', prefix: 'starts with', contains: 'contains' },
  level: { 1: 'First-level customer', 2: 'Second-level customer' },
  batchId: 'Batch {{id}}',
  imported: '{{count}} cards imported',
};
export default en;
