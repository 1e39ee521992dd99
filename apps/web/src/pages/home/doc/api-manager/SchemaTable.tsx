import { Table, Tag, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { viewOf, type Constraint, type FieldRow, type JsonSchema } from './schema.ts';

const r = (k: string) => `doc.api.ref.${k}`;

/** A JSON schema as a property table: field, type, required, constraints. */
export function SchemaTable({ schema, emptyText }: { schema: JsonSchema | undefined; emptyText: string }) {
  const { t } = useTranslation();
  const view = viewOf(schema);
  const constraint = (c: Constraint) => {
    switch (c.key) {
      case 'pattern':
        return t(r('pattern'), { p: c.value });
      case 'format':
        return t(r('format'), { f: c.value });
      case 'enumOf':
        return t(r('enumOf'), { v: c.value });
      case 'defaultIs':
        return t(r('defaultIs'), { v: c.value });
      default:
        return t(r(c.key), { n: c.value });
    }
  };

  if (view.kind === 'none') return <Typography.Text type="secondary">{emptyText}</Typography.Text>;
  if (view.kind === 'null') return <Typography.Text type="secondary">{t(r('nullResponse'))}</Typography.Text>;
  if (view.kind === 'scalar') return <Typography.Text code>{view.type}</Typography.Text>;
  return (
    <>
      <Table<FieldRow>
        size="small"
        rowKey="name"
        pagination={false}
        dataSource={view.rows}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: t(r('field')),
            dataIndex: 'name',
            render: (name: string, row) => (
              <div style={{ paddingLeft: row.depth * 16 }}>
                <Typography.Text code>{name}</Typography.Text>
                {row.description && <div><Typography.Text type="secondary" style={{ fontSize: 12 }}>{row.description}</Typography.Text></div>}
              </div>
            ),
          },
          { title: t(r('type')), dataIndex: 'type', render: (v: string) => <Typography.Text type="success" style={{ fontFamily: 'monospace' }}>{v}</Typography.Text> },
          { title: t(r('required')), dataIndex: 'required', width: 70, align: 'center', render: (v: boolean) => (v ? <CheckOutlined style={{ color: '#cf1322' }} aria-label={t(r('required'))} /> : null) },
          {
            title: t(r('constraints')),
            dataIndex: 'constraints',
            render: (cs: Constraint[]) => (cs.length ? cs.map((c) => <Tag key={c.key} style={{ marginBottom: 2 }}>{constraint(c)}</Tag>) : '-'),
          },
        ]}
      />
      {view.strict && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{t(r('noExtra'))}</Typography.Text>}
    </>
  );
}
