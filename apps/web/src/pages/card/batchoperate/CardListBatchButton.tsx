import { useState } from 'react';
import { Button, Tooltip } from 'antd';
import { AppstoreAddOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useSession } from '../../../stores/session.ts';
import { NewBatchModal } from './NewBatchModal.tsx';
import { detailPath, scopeFor, SCOPES, typesFor, type BatchScope } from './scope.ts';

/**
 * The card list's entry to batch operations: the ticked cards (or the cards matching the list's filters) go
 * straight into the new-batch flow; after the confirmation the batch's detail page opens.
 */
export function CardListBatchButton({ iccids, filters }: { iccids: string[]; filters: Record<string, unknown> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const permissions = useSession((s) => s.permissions);
  const has = (p: number) => permissions.has(p);
  const [open, setOpen] = useState(false);
  // the Card › Batch operations screen offers every type; without it, the shortcut screens the user holds
  const scopes: BatchScope[] = has(SCOPES.card.perm) ? ['card'] : (['status', 'standard', 'recovery'] as const).filter((s) => has(SCOPES[s].perm));
  // pool join / leave from the ticked cards too, for those who may move cards between pools
  const types = [...new Set([...scopes, 'pool' as const].flatMap((s) => typesFor(s, has)))];
  if (!types.length) return null;
  return (
    <>
      <Tooltip title={t('batch.fromCardListHint')}>
        <Button icon={<AppstoreAddOutlined />} onClick={() => setOpen(true)} data-testid="card-batch-button">{t('batch.fromCardList')}</Button>
      </Tooltip>
      <NewBatchModal
        open={open} onClose={() => setOpen(false)} scope={scopes[0] ?? 'pool'} types={types} selection={iccids} filters={filters}
        onConfirmed={(b) => { setOpen(false); navigate(detailPath(scopeFor(b.type, has), b.batchId)); }}
      />
    </>
  );
}
