-- Charges at the event (issue 14, docs/billing.md "Charges at the event"): a prepaid plan's term when its contract
-- starts or is renewed, a supplementary pack when it is ordered. Rated and recorded by the card change that causes
-- them, in its transaction; a prepaid customer's balance is withheld then (journal_id), a postpaid customer pays on
-- the period's bill. The bill run lists them as the bill's category 2 and 6 lines (withheld ones not due again).

-- one record: one customer's charges of one event × plan or pack × billing period made by one card change or batch
create table card_charges (
  charge_id bigint generated always as identity primary key,
  cust_id integer not null references customers (cust_id),
  root_cust_id integer not null,
  -- ChargeEvent: 1 plan started, 2 renewal, 3 automatic renewal, 4 pack ordered
  event smallint not null check (event between 1 and 4),
  -- BillLineCategory: 2 prepaid plan fee, 6 supplementary pack fee
  category smallint not null check (category in (2, 6)),
  goods_release_id integer not null,
  -- the billing period whose bill lists it ('YYYY-MM', the card operator's period of the event)
  period_key text not null check (period_key ~ '^\d{4}-\d{2}$'),
  cards integer not null check (cards > 0),
  quantity bigint not null check (quantity > 0),
  amount numeric(16, 2) not null check (amount > 0),
  tax numeric(16, 2) not null,
  -- ChargeState: 1 withheld, 2 on the bill (postpaid), 3 on the bill (a prepaid balance too low for a platform-made change)
  state smallint not null check (state between 1 and 3),
  -- the withholding journal (state 1), written right after the record in the same transaction
  journal_id bigint,
  actor text not null,
  created_at timestamptz not null default now()
);
create index card_charges_cust on card_charges (cust_id, charge_id desc);
create index card_charges_root on card_charges (root_cust_id, charge_id desc);
create index card_charges_period on card_charges (period_key, cust_id);

-- a record's cards: what each one was charged
create table card_charge_items (
  charge_id bigint not null references card_charges (charge_id) on delete cascade,
  iccid text not null,
  -- the business days paid for (a term of the contract, the pack's validity)
  from_day date not null,
  to_day date not null,
  quantity bigint not null check (quantity > 0),
  unit_price numeric(14, 2) not null,
  amount numeric(14, 2) not null,
  tax numeric(14, 2) not null,
  operator_id smallint,
  card_type_id integer,
  primary key (charge_id, iccid)
);
-- a card's charges (the card detail's Billing tab)
create index card_charge_items_iccid on card_charge_items (iccid, charge_id);
