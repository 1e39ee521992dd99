import { useEffect, useState } from 'react';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import enUS from 'antd/locale/en_US';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import i18n from '../locales/i18n.ts';
import { feedback, setFeedback, setNavigate } from '../request/feedback.ts';
import { router } from './router.tsx';

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 } },
});

function FeedbackBridge() {
  const api = AntApp.useApp();
  useEffect(() => {
    setFeedback(api);
    setNavigate((to) => router.navigate(to));
  }, [api]);
  return null;
}

export default function App() {
  const [lang, setLang] = useState(i18n.language);
  useEffect(() => {
    const on = (l: string) => {
      setLang(l);
      // texts the server writes (history notes, download task titles, catalogue names) come in the request's language
      void queryClient.invalidateQueries();
      // a message shown before the switch is in the other language
      feedback()?.message.destroy();
    };
    i18n.on('languageChanged', on);
    return () => i18n.off('languageChanged', on);
  }, []);
  return (
    <ConfigProvider
      locale={lang === 'en' ? enUS : zhCN}
      theme={{ algorithm: theme.defaultAlgorithm, token: { colorPrimary: '#1668dc', borderRadius: 6 } }}
    >
      <AntApp>
        <FeedbackBridge />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}
