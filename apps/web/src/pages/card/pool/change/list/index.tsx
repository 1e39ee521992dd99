import { Alert, Space } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { pool } from '@lynx/contract';
import { call } from '../../../../../request/http.ts';
import { BatchList } from '../../../batchoperate/BatchList.tsx';
import { poolChangesPath, poolDetailPath } from '../../shared.tsx';

/**
 * /card/pool/change/list/:salesOrder?: the batches that moved cards into or out of pools (batch types 7 and 8);
 * ?poolId= (from a pool's pages) shows the batches of that pool only.
 */
export default function PoolChangeList() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const raw = Number(search.get('poolId'));
  const poolId = Number.isInteger(raw) && raw > 0 ? raw : undefined;
  const detail = useQuery({
    queryKey: [pool.getPoolDetail.name, poolId],
    queryFn: ({ signal }) => call(pool.getPoolDetail, { poolId: poolId! }, { signal, silent: true }),
    enabled: !!poolId,
  });
  return (
    <>
      {poolId && (
        <Alert type="info" showIcon style={{ marginBottom: 12 }}
          title={
            <Space wrap>
              <Link to={poolDetailPath(poolId)}>{t('pool.change.of', { name: detail.data?.name ?? poolId })}</Link>
              <Link to={poolChangesPath()}>{t('pool.change.showAll')}</Link>
            </Space>
          } />
      )}
      {/* keyed by the pool so a different pool starts with a fresh search */}
      <BatchList key={poolId ?? 'all'} scope="pool" poolId={poolId} />
    </>
  );
}
