import type { ComponentType } from 'react';
import { Spin } from 'antd';
import { useLocaleArea } from '../locales/i18n.ts';

/** Renders a screen once the texts that load with it (long guides, FAQ) are there in the current language. */
export function withLocaleArea<P extends object>(area: 'doc', Page: ComponentType<P>): ComponentType<P> {
  function WithArea(props: P) {
    const { ready } = useLocaleArea(area);
    return ready ? <Page {...props} /> : <div style={{ padding: 64, textAlign: 'center' }}><Spin /></div>;
  }
  WithArea.displayName = `WithLocaleArea(${Page.displayName ?? Page.name})`;
  return WithArea;
}
