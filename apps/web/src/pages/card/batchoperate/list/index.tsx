import { BatchList } from '../BatchList.tsx';

/** /card/batchoperate/list/:type?: batches of every type the user may run (the route type narrows the list), with the new-batch flow. */
export default function Page() {
  return <BatchList scope="card" />;
}
