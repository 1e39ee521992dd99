import { Result, Skeleton } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { commserv } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { CommServForm } from '../CommServForm.tsx';
import { BASE } from '../shared.tsx';
import { usePageTitle } from '../../../../layout/pageTitle.ts';

/** /operator/commserv-list/edit/:commservId: edit a communication service. */
export default function CommServEdit() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const commservId = Number(useParams().commservId);
  const valid = Number.isInteger(commservId) && commservId > 0;
  const query = useQuery({
    queryKey: [commserv.getCommServDetail.name, commservId],
    queryFn: ({ signal }) => call(commserv.getCommServDetail, { commservId }, { signal, silent: true }),
    enabled: valid,
  });
  usePageTitle(query.data?.commservName);
  const leave = (to: string) => {
    navigate(to);
    useTabs.getState().close(`${BASE}/edit/${commservId}`);
  };
  if (valid && query.isLoading) return <div className="lx-card"><Skeleton active /></div>;
  if (!valid || query.isError || !query.data) return <div className="lx-card"><Result status="404" subTitle={t('common.notFound')} /></div>;
  return (
    <CommServForm
      record={query.data}
      onSubmit={async (body) => {
        await call(commserv.updateCommServ, { commservId, ...body }, { silent: true });
        return commservId;
      }}
      onSaved={() => {
        void qc.invalidateQueries({ queryKey: [commserv.getCommServListPage.name] });
        void qc.invalidateQueries({ queryKey: [commserv.getCommServDetail.name, commservId] });
        leave(`${BASE}/detail/${commservId}`);
      }}
      onCancel={() => leave(`${BASE}/detail/${commservId}`)}
    />
  );
}
