-- Issue 13: the capital list at 10,000 customers reads one page without reading every customer. Every customer has
-- its balance row from its creation (a trigger keeps the row and its tenant column in step with the customer), so
-- the list is an inner join walked in the order of an index on the sorted balance column; "available" is a stored
-- column for the same reason. The count is a separate query.

insert into customer_balances (cust_id, root_cust_id) select cust_id, root_cust_id from customers on conflict (cust_id) do nothing;

create function customer_balance_row() returns trigger language plpgsql as $$
begin
  insert into customer_balances (cust_id, root_cust_id) values (new.cust_id, new.root_cust_id)
  on conflict (cust_id) do update set root_cust_id = excluded.root_cust_id;
  return new;
end $$;
create trigger customers_balance_row after insert or update of root_cust_id on customers
  for each row execute function customer_balance_row();

alter table customer_balances add column available numeric(16, 2) generated always as (pre_deposit + grants + contract_payment + credit) stored;

create index customer_balances_pre_deposit_ix on customer_balances (pre_deposit, cust_id);
create index customer_balances_grants_ix on customer_balances (grants, cust_id);
create index customer_balances_contract_ix on customer_balances (contract_payment, cust_id);
create index customer_balances_credit_ix on customer_balances (credit, cust_id);
create index customer_balances_hold_ix on customer_balances (withdraw_hold, cust_id);
create index customer_balances_available_ix on customer_balances (available, cust_id);
create index customer_balances_updated_ix on customer_balances (updated_at, cust_id);
