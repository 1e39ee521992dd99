import { BatchDetail } from '../../../card/batchoperate/BatchDetail.tsx';

/** /shortcuts/standardsim/detail/:batchId/:state?: one standard-card operation. */
export default function Page() {
  return <BatchDetail scope="standard" />;
}
