import { useMemo, useState, type Key } from 'react';
import { Button, Empty, Input, Space, Tag, Tree, Typography } from 'antd';
import type { DataNode } from 'antd/es/tree';
import { AppstoreOutlined, FileOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { allPermissionCodes, type PermissionNode } from '@lynx/contract';
import { ancestorCodes, branchCodes, countKnown, filterTree, grantedTree, partialCodes, toggleCode } from './permissionCodes.ts';

function useNodes(tree: PermissionNode[]): DataNode[] {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  return useMemo(() => {
    const toData = (n: PermissionNode, depth: number): DataNode => ({
      key: n.code,
      title: (
        <Space size={6} data-testid={`perm-${n.code}`}>
          {n.kind === 'button' ? (
            <Tag color="geekblue" variant="filled" style={{ marginInlineEnd: 0 }}>{t('system.role.tree.button')}</Tag>
          ) : (
            <Tag color={depth === 0 ? 'blue' : 'cyan'} icon={depth === 0 ? <AppstoreOutlined /> : <FileOutlined />} variant="filled" style={{ marginInlineEnd: 0 }}>
              {t('system.role.tree.page')}
            </Tag>
          )}
          <Typography.Text strong={depth === 0}>{n[lang]}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>{n.code}</Typography.Text>
        </Space>
      ),
      children: n.children?.length ? n.children.map((c) => toData(c, depth + 1)) : undefined,
      isLeaf: !n.children?.length,
    });
    return tree.map((n) => toData(n, 0));
  }, [tree, lang, t]);
}

/**
 * The permission tree of a role, as a form control (value = granted codes). Checking follows the rules in
 * permissionCodes.ts so a saved role never holds a button without its page.
 */
export function PermissionTreeInput({ value = [], onChange, disabled }: { value?: number[]; onChange?: (codes: number[]) => void; disabled?: boolean }) {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const shown = useMemo(() => filterTree(keyword), [keyword]);
  const data = useNodes(shown);
  const branches = useMemo(() => branchCodes(), []);
  // until the user expands or collapses, the pages holding granted codes are open and the rest closed
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  const opened = useMemo(() => expanded ?? [...new Set(value.flatMap((c) => ancestorCodes(c)))], [expanded, value]);
  const filtering = keyword.trim() !== '';
  const partial = useMemo(() => partialCodes(value), [value]);
  return (
    <div className="lx-perm-tree" data-testid="permission-tree">
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Input.Search allowClear size="small" style={{ width: 220 }} placeholder={t('system.role.tree.filter')} onChange={(e) => setKeyword(e.target.value)} data-testid="permission-filter" />
        <Button size="small" disabled={filtering} onClick={() => setExpanded(branches)}>{t('system.role.tree.expandAll')}</Button>
        <Button size="small" disabled={filtering} onClick={() => setExpanded([])}>{t('system.role.tree.collapseAll')}</Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([...allPermissionCodes].sort((a, b) => a - b))}>{t('system.role.tree.selectAll')}</Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([])}>{t('system.role.tree.clearAll')}</Button>
        <Typography.Text type="secondary" data-testid="permission-count">
          {t('system.role.tree.selected', { count: countKnown(value), total: allPermissionCodes.length })}
        </Typography.Text>
      </Space>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, marginBottom: 8 }}>{t('system.role.tree.hint')}</Typography.Paragraph>
      <div style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: 4 }}>
        {data.length ? (
          <Tree
            checkable
            checkStrictly
            selectable={false}
            disabled={disabled}
            treeData={data}
            height={440}
            expandedKeys={filtering ? branchCodes(shown) : opened}
            onExpand={(keys) => !filtering && setExpanded(keys)}
            checkedKeys={{ checked: value, halfChecked: partial }}
            onCheck={(_keys, info) => onChange?.(toggleCode(value, Number(info.node.key), info.checked))}
          />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('system.role.tree.noMatch')} />
        )}
      </div>
    </div>
  );
}

/** The granted part of the tree, read-only, everything expanded. */
export function PermissionTreeView({ codes }: { codes: number[] }) {
  const { t } = useTranslation();
  const tree = useMemo(() => grantedTree(codes), [codes]);
  const data = useNodes(tree);
  const branches = useMemo(() => branchCodes(tree), [tree]);
  const [expanded, setExpanded] = useState<Key[] | null>(null);
  if (!tree.length) return <Empty description={t('system.role.noPermissions')} />;
  return (
    <div data-testid="permission-view">
      <Space wrap size={8} style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => setExpanded(branches)}>{t('system.role.tree.expandAll')}</Button>
        <Button size="small" onClick={() => setExpanded([])}>{t('system.role.tree.collapseAll')}</Button>
        <Typography.Text type="secondary">{t('system.role.tree.granted', { count: countKnown(codes) })}</Typography.Text>
      </Space>
      <Tree selectable={false} showLine treeData={data} height={560} expandedKeys={expanded ?? branches} onExpand={(keys) => setExpanded(keys)} />
    </div>
  );
}
