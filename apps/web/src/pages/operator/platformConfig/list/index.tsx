import { Button, Card, Col, Empty, Row, Skeleton, Space, Statistic, Typography } from 'antd';
import { SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PlatformType, opconfig } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useLang } from '../../config/shared.tsx';

/** /operator/platformConfig/list: the platform types, each with its entries and how many are on. */
export default function PlatformTypes() {
  const { t } = useTranslation();
  const lang = useLang();
  const navigate = useNavigate();
  const types = useQuery({ queryKey: [opconfig.getPlatformTypes.name], queryFn: ({ signal }) => call(opconfig.getPlatformTypes, {}, { signal }) });
  return (
    <div className="lx-card">
      <Typography.Title level={5} style={{ marginTop: 0 }}>{t('opconfig.platform.typesTitle')}</Typography.Title>
      {types.isLoading && <Skeleton active />}
      {types.isSuccess && !types.data.length && <Empty />}
      <Row gutter={[16, 16]}>
        {(types.data ?? []).map((x) => {
          const schema = opconfig.platformSchemaOf(x.platformType);
          return (
            <Col key={x.platformType} xs={24} md={12} xl={8}>
              <Card
                title={PlatformType.label(x.platformType, lang)}
                extra={
                  <Button type="link" icon={<SettingOutlined />} onClick={() => void navigate(`/operator/platformConfig/detail/${x.platformType}`)} data-testid={`platform-type-${x.platformType}`}>
                    {t('opconfig.platform.manage')}
                  </Button>
                }
              >
                <Typography.Paragraph type="secondary" style={{ minHeight: 44 }}>{schema?.description[lang]}</Typography.Paragraph>
                <Space size="large">
                  <Statistic title={t('opconfig.platform.fieldCount')} value={schema?.fields.length ?? 0} />
                  <Statistic title={t('opconfig.platform.entryCount')} value={x.total} />
                  <Statistic title={t('opconfig.platform.onCount')} value={x.on} />
                </Space>
              </Card>
            </Col>
          );
        })}
      </Row>
    </div>
  );
}
