import { useMemo, useState, type ReactNode } from 'react';
import { Button, Collapse, Empty, Input, Space, Table, Tag, Typography } from 'antd';
import { QuestionCircleOutlined, SearchOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { Highlight, matches } from '../highlight.tsx';
import { withLocaleArea } from '../../../../components/LocaleArea.tsx';

/** Topics and their questions; the texts live under doc.faq.items.<key>.{q,a}. */
const TOPICS: { key: string; items: string[] }[] = [
  { key: 'cards', items: ['cardStates', 'proStates', 'testPeriod', 'deactivate', 'qrCode'] },
  { key: 'plans', items: ['planChange', 'planChangeLimit', 'renewal', 'eventPack', 'planLimits'] },
  { key: 'network', items: ['networkReset', 'sessionHistory', 'regionLimit', 'diagnosis'] },
  { key: 'automation', items: ['ruleTrigger', 'ruleContacts'] },
  { key: 'money', items: ['withdrawal', 'publicTopup', 'unicomCycle', 'writeOff', 'amounts'] },
  { key: 'account', items: ['password', 'loginLock', 'sessionExpiry', 'frozen', 'menus', 'logo', 'language'] },
  { key: 'data', items: ['downloads', 'selection'] },
  { key: 'api', items: ['callLimit', 'apiKey', 'apiLang'] },
];

/** Card states of spec §4 (60 start … 68 forced shutdown), explained in the first question. */
const CARD_STATES = [60, 61, 62, 63, 64, 65, 66, 67, 68];

interface Question {
  key: string;
  topic: string;
  q: string;
  a: string;
  /** searchable text of the extra content */
  extraText: string;
  extra?: (kw: string) => ReactNode;
}

/** /home/doc/faq: product rules as questions, grouped by topic, with a search over questions and answers. */
function FaqPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [keyword, setKeyword] = useState('');
  const [topic, setTopic] = useState<string | null>(null);
  const [open, setOpen] = useState<string[]>(['cardStates']);

  const questions = useMemo<Question[]>(() => {
    const states = CARD_STATES.map((c) => ({ code: c, name: t(`doc.faq.states.s${c}.name`), desc: t(`doc.faq.states.s${c}.desc`) }));
    return TOPICS.flatMap(({ key: topicKey, items }) =>
      items.map((k) => ({
        key: k,
        topic: topicKey,
        q: t(`doc.faq.items.${k}.q`),
        a: t(`doc.faq.items.${k}.a`, { sessionExpired: t('shell.sessionExpired') }),
        extraText: k === 'cardStates' ? states.map((s) => `${s.code} ${s.name} ${s.desc}`).join(' ') : '',
        extra:
          k === 'cardStates'
            ? (kw: string) => (
                <Table
                  size="small"
                  rowKey="code"
                  pagination={false}
                  dataSource={states}
                  scroll={{ x: 560 }}
                  columns={[
                    { title: t('doc.faq.stateCode'), dataIndex: 'code', width: 80, render: (v: number) => <Tag>{v}</Tag> },
                    { title: t('doc.faq.stateName'), dataIndex: 'name', width: 180, render: (v: string) => <Highlight text={v} keyword={kw} /> },
                    { title: t('doc.faq.stateMeaning'), dataIndex: 'desc', render: (v: string) => <Highlight text={v} keyword={kw} /> },
                  ]}
                />
              )
            : undefined,
      })),
    );
  }, [t]);

  const kw = keyword.trim();
  const visible = questions.filter((q) => (!topic || q.topic === topic) && matches(`${q.q} ${q.a} ${q.extraText}`, kw));

  const onSearch = (value: string) => {
    setKeyword(value);
    const k = value.trim();
    // a search opens every question it found, so the matching text is visible at once
    if (k) setOpen(questions.filter((q) => matches(`${q.q} ${q.a} ${q.extraText}`, k)).map((q) => q.key));
  };

  return (
    <div className="lx-card lx-doc">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        <QuestionCircleOutlined /> {t('doc.faq.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('doc.faq.intro')}</Typography.Paragraph>
      <Input
        allowClear
        size="large"
        prefix={<SearchOutlined />}
        placeholder={t('doc.faq.searchPlaceholder')}
        aria-label={t('doc.search')}
        value={keyword}
        onChange={(e) => onSearch(e.target.value)}
        style={{ maxWidth: 640 }}
        data-testid="faq-search"
      />
      <Space wrap size={[4, 8]} style={{ margin: '12px 0' }}>
        <Tag.CheckableTag checked={topic === null} onChange={() => setTopic(null)}>{t('doc.faq.all')}</Tag.CheckableTag>
        {TOPICS.map((g) => (
          <Tag.CheckableTag key={g.key} checked={topic === g.key} onChange={(on) => setTopic(on ? g.key : null)}>
            {t(`doc.faq.groups.${g.key}`)}
          </Tag.CheckableTag>
        ))}
      </Space>
      {kw && <Typography.Paragraph type="secondary">{t('doc.faq.matches', { count: visible.length })}</Typography.Paragraph>}
      {visible.length === 0 ? (
        <Empty
          description={<>{t('doc.faq.empty')}<br /><Typography.Text type="secondary">{t('doc.faq.emptyHint')}</Typography.Text></>}
        >
          <Button type="primary" onClick={() => navigate('/home/doc/guide')}>{t('doc.faq.openGuide')}</Button>
        </Empty>
      ) : (
        TOPICS.filter((g) => visible.some((q) => q.topic === g.key)).map((g) => (
          <div key={g.key} style={{ marginBottom: 20 }}>
            <Typography.Title level={5}>{t(`doc.faq.groups.${g.key}`)}</Typography.Title>
            <Collapse
              activeKey={open}
              onChange={(keys) => {
                const inGroup = new Set(g.items);
                setOpen((prev) => [...prev.filter((k) => !inGroup.has(k)), ...(keys as string[])]);
              }}
              items={visible
                .filter((q) => q.topic === g.key)
                .map((q) => ({
                  key: q.key,
                  label: <Typography.Text strong><Highlight text={q.q} keyword={kw} /></Typography.Text>,
                  children: (
                    <>
                      <Typography.Paragraph style={{ whiteSpace: 'pre-line', marginBottom: q.extra ? 12 : 0 }}>
                        <Highlight text={q.a} keyword={kw} />
                      </Typography.Paragraph>
                      {q.extra?.(kw)}
                    </>
                  ),
                }))}
            />
          </div>
        ))
      )}
    </div>
  );
}

export default withLocaleArea('doc', FaqPage);
