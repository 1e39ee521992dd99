import { BatchDetail } from '../../../card/batchoperate/BatchDetail.tsx';

/** /shortcuts/batchoperate/detail/:batchId/:state: one batch status change. */
export default function Page() {
  return <BatchDetail scope="status" />;
}
