import { useState } from 'react';
import { Button, Empty, Input, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { COMMSERV_WHITELIST_MAX } from '@lynx/contract';
import { addWhitelistEntries, type WhitelistInputError } from './whitelist.ts';

/**
 * The whitelist of a service as a form control (value: string[]): type or paste entries, see "n / 32", remove
 * one by its tag. Invalid, duplicate and over-the-limit entries are refused here, before the server sees them.
 */
export function WhitelistEditor({ value = [], onChange, id }: { value?: string[]; onChange?: (v: string[]) => void; id?: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<WhitelistInputError | null>(null);
  const full = value.length >= COMMSERV_WHITELIST_MAX;

  const add = () => {
    if (!text.trim()) return;
    const r = addWhitelistEntries(value, text);
    setError(r.error);
    if (!r.error) {
      onChange?.(r.next);
      setText('');
    }
  };
  const message = (e: WhitelistInputError) =>
    e.kind === 'tooMany' ? t('commserv.whitelist.tooMany', { max: e.max, count: e.count }) : t(`commserv.whitelist.${e.kind}`, { value: e.value });

  return (
    <div data-testid="whitelist-editor">
      <Space.Compact style={{ width: '100%' }}>
        {/* a text area, so pasted lines keep their breaks (a text input drops them) */}
        <Input.TextArea
          id={id}
          autoSize={{ minRows: 1, maxRows: 4 }}
          value={text}
          onChange={(e) => {
            setText(e.target.value);
            if (error) setError(null);
          }}
          onPressEnter={(e) => {
            if (e.shiftKey) return; // Shift+Enter: a new line
            e.preventDefault();
            add();
          }}
          placeholder={t('commserv.whitelist.placeholder')}
          status={error ? 'error' : undefined}
          autoComplete="off"
          data-testid="whitelist-input"
        />
        <Button icon={<PlusOutlined />} onClick={add} data-testid="whitelist-add">{t('commserv.whitelist.add')}</Button>
      </Space.Compact>
      <div style={{ display: 'flex', gap: 8, marginTop: 4 }}>
        {error && <Typography.Text type="danger" data-testid="whitelist-error">{message(error)}</Typography.Text>}
        <Typography.Text type={full ? 'warning' : 'secondary'} style={{ marginLeft: 'auto', whiteSpace: 'nowrap' }} data-testid="whitelist-count">
          {t('commserv.whitelist.count', { count: value.length, max: COMMSERV_WHITELIST_MAX })}
        </Typography.Text>
      </div>
      <div style={{ marginTop: 8, display: 'flex', flexWrap: 'wrap', gap: 6 }}>
        {value.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('commserv.whitelist.empty')} style={{ margin: 0 }} />}
        {value.map((v) => (
          <Tag
            key={v}
            closable
            closeIcon={<span aria-label={t('commserv.whitelist.remove', { value: v })}>×</span>}
            onClose={(e) => {
              e.preventDefault();
              onChange?.(value.filter((x) => x !== v));
              setError(null);
            }}
            style={{ fontFamily: 'monospace', margin: 0 }}
          >
            {v}
          </Tag>
        ))}
      </div>
    </div>
  );
}
