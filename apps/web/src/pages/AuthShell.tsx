import type { ReactNode } from 'react';
import GlobalOutlined from '@ant-design/icons-svg/es/asn/GlobalOutlined';
import { Icon } from '../login/Icon.tsx';
import './auth.css';

/**
 * The look of the open pages (login, register): logo, language toggle, title. Plain React and CSS, so the login page
 * can show it without antd; pages/AuthFrame.tsx gives it the console's texts and logo.
 */
export function AuthShell(props: { title: string; appName: string; langLabel: string; onToggleLang: () => void; logo: string | null; children: ReactNode }) {
  return (
    <div className="lx-auth-page">
      <div className="lx-auth-card">
        <div className="lx-auth-top">
          <img src={props.logo ?? '/favicon.svg'} alt="logo" className="lx-auth-logo" />
          <button type="button" className="lx-auth-lang" onClick={props.onToggleLang} data-testid="lang-toggle">
            <Icon def={GlobalOutlined} />
            {/* the other language's name, in that language (中文 on an English page) */}
            <span lang={/[\u4e00-\u9fff]/.test(props.langLabel) ? 'zh-CN' : 'en'}>{props.langLabel}</span>
          </button>
        </div>
        <h3 className="lx-auth-title">{props.title}</h3>
        <div className="lx-auth-sub">{props.appName}</div>
        {props.children}
      </div>
    </div>
  );
}
