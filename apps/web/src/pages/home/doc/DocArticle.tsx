import type { ReactNode } from 'react';
import { Anchor, Col, Row, Steps, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export interface DocSection {
  /** element id; prefixed per page because several guides can be open in tabs at once */
  id: string;
  title: string;
  body: ReactNode;
}

/**
 * A help article: sections in a white card and an "on this page" anchor beside them (below them on narrow
 * screens). Anchor clicks only scroll: the URL keeps no hash, so tabs and the router are not disturbed.
 */
export function DocArticle({ title, intro, sections, extra }: { title: string; intro: ReactNode; sections: DocSection[]; extra?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Row gutter={16} wrap>
      <Col xs={24} lg={18} xl={19}>
        <div className="lx-card lx-doc">
          <Typography>
            <Typography.Title level={3} style={{ marginTop: 0 }}>{title}</Typography.Title>
            <Typography.Paragraph type="secondary">{intro}</Typography.Paragraph>
            {extra}
            {sections.map((s) => (
              <section key={s.id} id={s.id} style={{ scrollMarginTop: 16 }}>
                <Typography.Title level={4}>{s.title}</Typography.Title>
                {s.body}
              </section>
            ))}
          </Typography>
        </div>
      </Col>
      <Col xs={0} lg={6} xl={5}>
        <div className="lx-card" style={{ position: 'sticky', top: 12 }}>
          <Typography.Text type="secondary">{t('doc.onThisPage')}</Typography.Text>
          <Anchor
            style={{ marginTop: 8 }}
            targetOffset={16}
            onClick={(e) => e.preventDefault()}
            items={sections.map((s) => ({ key: s.id, href: `#${s.id}`, title: s.title }))}
          />
        </div>
      </Col>
    </Row>
  );
}

/** Paragraphs from locale keys. */
export function Paras({ keys, values }: { keys: string[]; values?: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <>
      {keys.map((k) => (
        <Typography.Paragraph key={k}>{t(k, values)}</Typography.Paragraph>
      ))}
    </>
  );
}

/** A bulleted list from locale keys. */
export function Bullets({ keys, values }: { keys: string[]; values?: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <Typography.Paragraph>
      <ul>
        {keys.map((k) => (
          <li key={k}>{t(k, values)}</li>
        ))}
      </ul>
    </Typography.Paragraph>
  );
}

/** Numbered steps: `${base}.sN` is the title and `${base}.sNd` the description. */
export function DocSteps({ base, count, values }: { base: string; count: number; values?: Record<string, string> }) {
  const { t } = useTranslation();
  return (
    <Steps
      orientation="vertical"
      size="small"
      current={-1}
      style={{ margin: '8px 0 16px' }}
      items={Array.from({ length: count }, (_, i) => ({
        title: t(`${base}.s${i + 1}`, values),
        content: t(`${base}.s${i + 1}d`, values),
        status: 'process' as const,
      }))}
    />
  );
}
