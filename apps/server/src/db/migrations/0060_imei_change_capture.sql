-- IMEI changes captured where they happen (issue 15; docs/automation.md "Catalogue"): every change of a card's IMEI from
-- a known one to another is recorded in autorule_imei_changes by a trigger on cards, at the instant of the change and in
-- the writer's transaction, whoever the writer is. The rule engine used to find changes by comparing every card's IMEI
-- with a snapshot (autorule_imei_seen) on each run: a read of every card on every feed check, and a change was dated
-- when a run saw it, not when it happened. The first IMEI a card gets (from none) is not a change, as before.
create function autorule_capture_imei_change() returns trigger language plpgsql as $$
begin
  insert into autorule_imei_changes (iccid, changed_at, old_imei, new_imei)
  values (new.iccid, now(), old.imei, new.imei)
  on conflict do nothing;
  return null;
end
$$;

create trigger cards_imei_changed after update of imei on cards
  for each row when (old.imei is not null and new.imei is not null and old.imei is distinct from new.imei)
  execute function autorule_capture_imei_change();

drop table autorule_imei_seen;
