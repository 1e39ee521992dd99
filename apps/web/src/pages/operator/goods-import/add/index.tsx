import { ImportPage } from '../ImportPage.tsx';

/** /operator/goods-import/add */
export default function OperatorGoodsImportPage() {
  return <ImportPage listPath="/operator/goods-import/list" />;
}
