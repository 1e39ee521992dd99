import { BatchList } from '../../../card/batchoperate/BatchList.tsx';

/** /shortcuts/standardsim/list: standard-card operations (status changes of standard-version cards). */
export default function Page() {
  return <BatchList scope="standard" />;
}
