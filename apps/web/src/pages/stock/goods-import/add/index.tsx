import { useParams } from 'react-router';
import { ImportPage } from '../../../operator/goods-import/ImportPage.tsx';

/** /stock/goods-import/add/:type?: back to the tab the import started from. */
export default function StockGoodsImportPage() {
  const type = useParams().type;
  const tab = type && ['data', 'sms', 'voice'].includes(type) ? type : null;
  return <ImportPage listPath={tab ? `/stock/goods-import/list/${tab}` : '/stock/goods-import/list'} />;
}
