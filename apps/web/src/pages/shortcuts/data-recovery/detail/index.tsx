import { BatchDetail } from '../../../card/batchoperate/BatchDetail.tsx';

/** /shortcuts/data-recovery/detail/:batchId/:state?: one data recovery run. */
export default function Page() {
  return <BatchDetail scope="recovery" />;
}
