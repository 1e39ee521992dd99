-- One language per screen (issue 12): communication services and plan zones get an English name beside the name the
-- operator typed. A reader in English sees the English name where there is one, else the name as typed. The demo
-- catalogue's rows get theirs here (databases created before this migration) and in the seed (new ones).
alter table comm_services add column commserv_name_en text;
alter table plan_zones add column zone_name_en text;

update comm_services s set commserv_name_en = v.en
from (values
  ('通用互联网数据', 'General internet data'),
  ('企业云定向数据', 'Enterprise cloud directed data'),
  ('点对点短信', 'Point-to-point SMS'),
  ('语音通话', 'Voice calls')
) as v(zh, en)
where s.commserv_name = v.zh and s.commserv_name_en is null;

update plan_zones z set zone_name_en = v.en
from (values
  ('全国公网', 'Nationwide public network'),
  ('企业专网', 'Enterprise private network')
) as v(zh, en)
where z.zone_name = v.zh and z.zone_name_en is null;

-- the built-in roles' description repeated their English name, in English on either screen: they need none (the role
-- list shows their name in the reader's language)
update roles set description = null where built_in and description = role_name_en;
