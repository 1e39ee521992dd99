import { BatchDetail } from '../BatchDetail.tsx';

/** /card/batchoperate/detail/:batchId/:state: one batch and its per-card results (state: all, succeeded, failed, invalid, already, pending). */
export default function Page() {
  return <BatchDetail scope="card" />;
}
