import { Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { OperatorGoodsType } from '@lynx/contract';
import { GoodsList, STOCK_GOODS_PERMS } from '../../../operator/goods-import/GoodsList.tsx';

/** The :tab segment of /stock/goods-import/list/:tab? → plan type (none: all plans). */
const STOCK_TABS = { data: OperatorGoodsType.Data, sms: OperatorGoodsType.Sms, voice: OperatorGoodsType.Voice } as const;
type StockTab = keyof typeof STOCK_TABS;
const isTab = (s: string | undefined): s is StockTab => !!s && Object.hasOwn(STOCK_TABS, s);

/** /stock/goods-import/list/:tab?: the same operator plans as the Operator screen, under the Stock codes. */
export default function StockGoodsListPage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const raw = useParams().tab;
  const tab = isTab(raw) ? raw : 'all';
  const goodsType = tab === 'all' ? undefined : STOCK_TABS[tab];
  return (
    <GoodsList
      key={tab}
      perms={STOCK_GOODS_PERMS}
      goodsType={goodsType}
      importPath={tab === 'all' ? '/stock/goods-import/add' : `/stock/goods-import/add/${tab}`}
      tabs={
        <Tabs
          activeKey={tab}
          onChange={(k) => navigate(k === 'all' ? '/stock/goods-import/list' : `/stock/goods-import/list/${k}`)}
          items={[
            { key: 'all', label: t('netconfig.goods.tabAll') },
            ...(Object.keys(STOCK_TABS) as StockTab[]).map((k) => ({ key: k, label: OperatorGoodsType.label(STOCK_TABS[k], lang) })),
          ]}
        />
      }
    />
  );
}
