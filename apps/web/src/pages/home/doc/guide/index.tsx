import { Alert, Button, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ExportState, Perm } from '@lynx/contract';
import { usePerm } from '../../../../components/PermButton.tsx';
import { Bullets, DocArticle, DocSteps, Paras, type DocSection } from '../DocArticle.tsx';
import { withLocaleArea } from '../../../../components/LocaleArea.tsx';

const g = (k: string) => `doc.guide.${k}`;

/** /home/doc/guide: the customer's user guide, one section per task, with an "on this page" anchor. */
function GuidePage() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language === 'en' ? 'en' : 'zh';
  const navigate = useNavigate();
  const canApi = usePerm(Perm.HomeApiManage);
  // names of buttons and menus come from their own keys, so the guide always says what the screen shows
  const ui = {
    states: ExportState.options(lang).map((o) => o.label).join(lang === 'zh' ? '、' : ', '),
    export: t('common.export'),
    goToDownloads: t('common.goToDownloads'),
    reload: t('shell.tabReload'),
    close: t('shell.tabClose'),
    closeOthers: t('shell.tabCloseOthers'),
    accounts: t('shell.accountManagement'),
    customers: t('shell.customerManagement'),
    logo: t('shell.logoSetting'),
    help: t('shell.help'),
    apiManager: t('shell.apiManager'),
  };

  const sections: DocSection[] = [
    {
      id: 'ug-login',
      title: t(g('login.title')),
      body: (
        <>
          <DocSteps base={g('login')} count={4} values={ui} />
          <Alert type="info" showIcon title={t(g('login.note'))} style={{ marginBottom: 16 }} />
        </>
      ),
    },
    { id: 'ug-password', title: t(g('password.title')), body: <Paras keys={['p1', 'p2', 'p3'].map((k) => g(`password.${k}`))} values={ui} /> },
    { id: 'ug-language', title: t(g('language.title')), body: <Paras keys={['p1', 'p2'].map((k) => g(`language.${k}`))} values={ui} /> },
    {
      id: 'ug-tabs',
      title: t(g('tabs.title')),
      body: (
        <>
          <Paras keys={[g('tabs.p1')]} values={ui} />
          <Bullets keys={['l1', 'l2', 'l3', 'l4'].map((k) => g(`tabs.${k}`))} values={ui} />
        </>
      ),
    },
    { id: 'ug-search', title: t(g('search.title')), body: <Paras keys={[g('search.p1')]} values={ui} /> },
    {
      id: 'ug-export',
      title: t(g('export.title')),
      body: (
        <>
          <DocSteps base={g('export')} count={4} values={ui} />
          <Alert type="info" showIcon title={t(g('export.note'))} style={{ marginBottom: 16 }} />
        </>
      ),
    },
    {
      id: 'ug-accounts',
      title: t(g('accounts.title')),
      body: (
        <>
          <Paras keys={[g('accounts.p1')]} values={ui} />
          <Bullets keys={['l1', 'l2', 'l3', 'l4'].map((k) => g(`accounts.${k}`))} values={ui} />
        </>
      ),
    },
    { id: 'ug-customers', title: t(g('customers.title')), body: <Paras keys={['p1', 'p2'].map((k) => g(`customers.${k}`))} values={ui} /> },
    {
      id: 'ug-freeze',
      title: t(g('freeze.title')),
      body: (
        <>
          <DocSteps base={g('freeze')} count={3} values={ui} />
          <Alert type="warning" showIcon title={t(g('freeze.note'))} style={{ marginBottom: 16 }} />
        </>
      ),
    },
    { id: 'ug-logo', title: t(g('logo.title')), body: <Paras keys={['p1', 'p2'].map((k) => g(`logo.${k}`))} values={ui} /> },
    {
      id: 'ug-api',
      title: t(g('api.title')),
      body: (
        <>
          <Paras keys={[g('api.p1')]} values={ui} />
          <Bullets keys={['l1', 'l2', 'l3'].map((k) => g(`api.${k}`))} values={ui} />
          {canApi && (
            <Typography.Paragraph>
              <Button onClick={() => navigate('/home/doc/api-manager')}>{t(g('api.open'))}</Button>
            </Typography.Paragraph>
          )}
        </>
      ),
    },
    {
      id: 'ug-help',
      title: t(g('help.title')),
      body: (
        <>
          <Paras keys={[g('help.p1')]} values={ui} />
          <Button type="primary" onClick={() => navigate('/home/doc/faq')}>{t(g('help.open'))}</Button>
        </>
      ),
    },
  ];

  return <DocArticle title={t(g('title'))} intro={t(g('intro'))} sections={sections} />;
}

export default withLocaleArea('doc', GuidePage);
