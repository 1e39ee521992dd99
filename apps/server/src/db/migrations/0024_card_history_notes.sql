-- One language per screen (issue 12): a card history entry keeps what a person typed (reason) apart from the sentence
-- the server wrote about it (batch number, allocation, quota used up, operator not reached…), which is stored in both
-- languages and shown in the reader's. Until now both went into reason: '中文 / English', or English only for the
-- target of a zone action ('zone 3', 'pack 2', 'periods 1'), or the seeds' 'demo data' / 'fleet seed'.
alter table card_history add column note_zh text, add column note_en text;

-- earlier entries: the server's parts of reason move to the notes; the rest stays as typed
with parts as (
  select h.iccid, h.history_id, p.part, p.n,
    case
      when p.part in ('demo data', 'fleet seed') then 'seed'
      when p.part ~ '^[^/]*[\u4e00-\u9fff][^/]* / [A-Za-z]' then 'pair'
      when p.part ~ '^(zone|region|network|pack|periods) \d+$' then 'target'
    end as kind
  from card_history h, unnest(string_to_array(h.reason, ' · ')) with ordinality as p(part, n)
  where h.reason like '% / %' or h.reason in ('demo data', 'fleet seed') or h.reason ~ '(^| · )(zone|region|network|pack|periods) \d+($| · )'
), split as (
  select iccid, history_id,
    string_agg(part, ' · ' order by n) filter (where kind is null) as typed,
    string_agg(case kind
      when 'seed' then '演示数据'
      when 'pair' then split_part(part, ' / ', 1)
      else case split_part(part, ' ', 1) when 'zone' then '区域 ' when 'region' then '地区 ' when 'network' then '网络 ' when 'pack' then '加油包 ' else '续费 ' end
        || split_part(part, ' ', 2) || case when part like 'periods %' then ' 期' else '' end
    end, ' · ' order by n) filter (where kind is not null) as zh,
    string_agg(case kind
      when 'seed' then 'demo data'
      when 'pair' then substr(part, strpos(part, ' / ') + 3)
      else case when part like 'periods %' then split_part(part, ' ', 2) || ' period(s)' else part end
    end, ' · ' order by n) filter (where kind is not null) as en
  from parts group by iccid, history_id
)
update card_history h set reason = s.typed, note_zh = s.zh, note_en = s.en
from split s
where h.iccid = s.iccid and h.history_id = s.history_id and s.zh is not null;
