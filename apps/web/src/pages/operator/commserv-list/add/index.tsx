import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { commserv } from '@lynx/contract';
import { call } from '../../../../request/http.ts';
import { useTabs } from '../../../../stores/tabs.ts';
import { CommServForm } from '../CommServForm.tsx';
import { BASE } from '../shared.tsx';

/** /operator/commserv-list/add: a new communication service; on save its detail opens to add QoS profiles. */
export default function CommServAdd() {
  const navigate = useNavigate();
  const qc = useQueryClient();
  const leave = (to: string) => {
    navigate(to);
    useTabs.getState().close(`${BASE}/add`);
  };
  return (
    <CommServForm
      record={null}
      onSubmit={async (body) => (await call(commserv.saveCommServ, body, { silent: true })).commservId}
      onSaved={(id) => {
        void qc.invalidateQueries({ queryKey: [commserv.getCommServListPage.name] });
        leave(`${BASE}/detail/${id}`);
      }}
      onCancel={() => leave(`${BASE}/list`)}
    />
  );
}
