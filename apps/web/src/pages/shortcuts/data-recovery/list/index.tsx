import { BatchList } from '../../../card/batchoperate/BatchList.tsx';

/** /shortcuts/data-recovery/list: data recovery runs (at most 1,000 cards each). */
export default function Page() {
  return <BatchList scope="recovery" />;
}
