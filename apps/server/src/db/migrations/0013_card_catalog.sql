-- The card catalogue (issue 5): labels, card types, and the indexes that keep the card list's remaining
-- search items (label, card type, first-use date, custom fields) and the test card list index-served at
-- millions of cards.

-- A label belongs to the customer who made it; labels made by operator staff have no customer and are
-- platform-wide. Cards carry label ids in cards.label_ids (integer[]), so ids are integers.
create table card_labels (
  label_id serial primary key,
  name text not null check (length(name) between 1 and 32),
  colour text not null check (colour ~ '^#[0-9a-fA-F]{6}$'),
  description text,
  cust_id integer,
  root_cust_id integer,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((cust_id is null) = (root_cust_id is null))
);
-- a name once per owner (the platform counts as one owner), regardless of case
create unique index card_labels_owner_name_ux on card_labels (coalesce(cust_id, 0), lower(name));
create index card_labels_root_ix on card_labels (root_cust_id, name);

-- The card type catalogue ("card product"), kept by operator staff. cards.card_type_id refers to it; the
-- reference is checked in code (import locks the types it uses, delete refuses a type cards still use).
create table card_types (
  card_type_id serial primary key,
  name_zh text not null,
  name_en text not null,
  -- CardFormFactor: plug-in 2FF/3FF/4FF, triple cut, MFF2 chip, eSIM
  form_factor smallint not null,
  -- CardGrade: consumer, industrial, automotive
  grade smallint not null,
  temp_min smallint not null,
  temp_max smallint not null,
  description text,
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check (temp_min < temp_max)
);
create unique index card_types_name_zh_ux on card_types (lower(name_zh));
create unique index card_types_name_en_ux on card_types (lower(name_en));

-- card list: "has any / all of these labels" (&&, @>) and the cards of one label. Finer element statistics let
-- the planner tell a rare label (read through the index) from a common one (walk the ICCID order).
create index cards_label_ids_gin on cards using gin (label_ids);
alter table cards alter column label_ids set statistics 1000;
-- card list card type filter in ICCID order (staff; customers per root tenant), and the "type in use" check
create index cards_card_type_ix on cards (card_type_id, iccid) where card_type_id is not null;
create index cards_root_card_type_ix on cards (root_cust_id, card_type_id, iccid) where card_type_id is not null;
-- first-use date range: per root tenant (customers) and platform-wide (staff)
create index cards_root_first_used_ix on cards (root_cust_id, first_used_at);
create index cards_first_used_ix on cards (first_used_at) where first_used_at is not null;
-- custom fields: exact and prefix search (text_pattern_ops serves both = and LIKE 'abc%')
create index cards_custom1_ix on cards (custom1 text_pattern_ops) where custom1 is not null;
create index cards_custom2_ix on cards (custom2 text_pattern_ops) where custom2 is not null;
-- test cards by test end (staff: every test card; customers add their tenant column)
create index cards_test_end_ix on cards (test_end_at, iccid) where state = 61;
create index cards_root_test_end_ix on cards (root_cust_id, test_end_at, iccid) where state = 61;
