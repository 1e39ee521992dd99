import { GoodsList, OPERATOR_GOODS_PERMS } from '../GoodsList.tsx';

/** /operator/goods-import/list: the operators' own rate plans, imported from their files. */
export default function OperatorGoodsListPage() {
  return <GoodsList perms={OPERATOR_GOODS_PERMS} importPath="/operator/goods-import/add" />;
}
