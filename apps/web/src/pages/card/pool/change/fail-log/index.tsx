import { BatchDetail } from '../../../batchoperate/BatchDetail.tsx';

/** /card/pool/change/fail-log/:batchId: a pool change batch and its per-card results, opening on the failures (?state= picks another tab). */
export default function Page() {
  return <BatchDetail scope="pool" />;
}
