import { useState } from 'react';
import { Button, Card, Col, Form, Input, InputNumber, Row, Select, Space, Tag, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { PLAN_ZONE_MAX, PLAN_ZONE_SERVICE_MAX } from '@lynx/contract';
import { required } from '../../../../components/rules.ts';
import { canAddZone, usedElsewhere, zoneServicesProblem, zonesProblem, type ServiceOption, type ZoneValue } from './zones.ts';
import { PriceInputNumber, priceRule } from '../shared.tsx';

/**
 * Up to 10 zones, each with up to 40 communication services; a service never in two zones, and only
 * services with QoS. Problems show on the zone's service field with the server's own message.
 */
export function ZonesEditor({ form, services, loading }: { form: FormInstance; services: ReadonlyMap<number, ServiceOption>; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const [limitError, setLimitError] = useState<string | null>(null);
  const zones: ZoneValue[] = Form.useWatch('zones', form) ?? [];
  const z = (k: string, o?: Record<string, unknown>) => t(`plan.form.zone.${k}`, o);
  const zoneLabel = (i: number) => zones[i]?.zoneName?.trim() || z('title', { index: i + 1 });

  return (
    <Form.List
      name="zones"
      rules={[{ validator: async (_r, v: ZoneValue[] | undefined) => { const p = zonesProblem(v, lang); if (p) throw new Error(p); } }]}
    >
      {(fields, { add, remove }, { errors }) => (
        <>
          {!fields.length && <Typography.Paragraph type="secondary">{z('empty')}</Typography.Paragraph>}
          {fields.map((field, index) => {
            const taken = usedElsewhere(zones, index);
            const count = zones[index]?.commservIds?.length ?? 0;
            const options = [...services.values()].map((s) => {
              const other = taken.get(s.commservId);
              return {
                value: s.commservId,
                label: (
                  <Space size={4}>
                    <span>{s.name}</span>
                    {s.qosCount < 1 && <Tag color="red">{z('noQos')}</Tag>}
                    {other !== undefined && <Tag color="orange">{z('usedIn', { zone: zoneLabel(other) })}</Tag>}
                  </Space>
                ),
                search: s.name,
              };
            });
            return (
              <Card
                key={field.key}
                size="small"
                style={{ marginBottom: 12 }}
                title={z('title', { index: index + 1 })}
                extra={
                  <Button type="text" danger size="small" icon={<DeleteOutlined />} onClick={() => { remove(field.name); setLimitError(null); }} aria-label={z('remove')}>
                    {z('remove')}
                  </Button>
                }
                data-testid={`zone-${index}`}
              >
                <Row gutter={16}>
                  <Col xs={24} md={8}>
                    <Form.Item
                      name={[field.name, 'zoneName']}
                      label={z('name')}
                      rules={[
                        { ...required(), whitespace: true },
                        { max: 64 },
                        {
                          validator: async (_r, v: string | undefined) => {
                            const key = v?.trim().toLowerCase();
                            if (key && zones.some((o, i) => i !== index && o?.zoneName?.trim().toLowerCase() === key)) throw new Error(z('nameDuplicate'));
                          },
                        },
                      ]}
                    >
                      <Input maxLength={64} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'quotaMb']} label={z('quota')}>
                      <InputNumber min={0} precision={2} style={{ width: '100%' }} />
                    </Form.Item>
                  </Col>
                  <Col xs={24} md={8}>
                    <Form.Item name={[field.name, 'price']} label={z('price')} rules={[priceRule('price')]}>
                      <PriceInputNumber />
                    </Form.Item>
                  </Col>
                </Row>
                <Form.Item name={[field.name, 'zoneNameEn']} label={z('nameEn')} extra={z('nameEnHint')} rules={[{ max: 64 }]}>
                  <Input maxLength={64} />
                </Form.Item>
                <Form.Item name={[field.name, 'regions']} label={z('regions')} extra={z('regionsHint')}>
                  <Select mode="tags" open={false} tokenSeparators={[',', '，']} />
                </Form.Item>
                <Form.Item
                  name={[field.name, 'commservIds']}
                  label={z('services')}
                  extra={z('servicesHint', { count, max: PLAN_ZONE_SERVICE_MAX })}
                  rules={[{
                    validator: async () => {
                      const p = zoneServicesProblem(form.getFieldValue('zones') ?? [], index, services, lang);
                      if (p) throw new Error(p);
                    },
                  }]}
                >
                  <Select
                    mode="multiple"
                    loading={loading}
                    options={options}
                    optionFilterProp="search"
                    showSearch
                    data-testid={`zone-${index}-services`}
                  />
                </Form.Item>
              </Card>
            );
          })}
          <Space align="center">
            <Button
              icon={<PlusOutlined />}
              onClick={() => {
                if (!canAddZone(fields)) {
                  setLimitError(zonesProblem(new Array(PLAN_ZONE_MAX + 1).fill({}), lang));
                  return;
                }
                setLimitError(null);
                add({ zoneName: '', regions: [], commservIds: [] });
              }}
              data-testid="zone-add"
            >
              {z('add')}
            </Button>
            <Typography.Text type="secondary">{z('limit', { count: fields.length, max: PLAN_ZONE_MAX })}</Typography.Text>
          </Space>
          <Form.ErrorList errors={errors} />
          {limitError && <div><Typography.Text type="danger" data-testid="zone-limit-error">{limitError}</Typography.Text></div>}
        </>
      )}
    </Form.List>
  );
}
