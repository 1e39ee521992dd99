import { BatchList } from '../../../card/batchoperate/BatchList.tsx';

/** /shortcuts/batchoperate/list/:type?: batch status changes. */
export default function Page() {
  return <BatchList scope="status" />;
}
