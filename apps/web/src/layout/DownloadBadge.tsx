import { useEffect } from 'react';
import { App, Badge, Button, Tooltip } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ExportState, pathOf, system } from '@lynx/contract';
import { call, downloadFile } from '../request/http.ts';

/** Polling of the badge: every 5 s while one of the user's exports is in process, else once a minute (and on focus). */
export const BADGE_BUSY_MS = 5_000;
export const BADGE_IDLE_MS = 60_000;
export const badgeInterval = (data: { inProcess: number } | null | undefined) => (data && data.inProcess > 0 ? BADGE_BUSY_MS : BADGE_IDLE_MS);

const NOTIFIED_KEY = 'lx_download_notified';
/** Tasks the user was already told about (this browser tab), so a reload does not repeat the notice. */
function notified(): Set<string> {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(NOTIFIED_KEY) ?? '[]') as string[]);
  } catch {
    return new Set();
  }
}
function remember(ids: Set<string>) {
  try {
    sessionStorage.setItem(NOTIFIED_KEY, JSON.stringify([...ids].slice(-50)));
  } catch {
    /* storage blocked: the notice may repeat after a reload */
  }
}

/**
 * The header's download button (issue 12): a badge with the number of the user's export files ready and not
 * downloaded yet, and a notice when an export becomes ready (or fails), with a download link. One small call
 * (getBadge) per minute, every 5 s only while an export of the user's is in process.
 */
export function DownloadBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { notification } = App.useApp();
  const q = useQuery({
    queryKey: [system.getDownloadBadge.name],
    queryFn: ({ signal }) => call(system.getDownloadBadge, {}, { signal, silent: true }),
    refetchInterval: (query) => badgeInterval(query.state.data),
  });
  const ready = q.data?.ready ?? 0;

  useEffect(() => {
    const recent = q.data?.recent ?? [];
    if (recent.length === 0) return;
    const seen = notified();
    for (const task of recent) {
      if (seen.has(task.taskId)) continue;
      seen.add(task.taskId);
      const key = `download-${task.taskId}`;
      const open = () => {
        notification.destroy(key);
        void navigate('/card/downloadtask/list');
      };
      if (task.state === ExportState.Succeeded) {
        const get = async () => {
          notification.destroy(key);
          await downloadFile(pathOf(system.downloadExportFile), { taskId: task.taskId }).catch(() => null);
          void qc.invalidateQueries({ queryKey: [system.getDownloadBadge.name] });
          void qc.invalidateQueries({ queryKey: [system.getDownloadTaskListPage.name] });
        };
        notification.success({
          key, message: t('download.readyTitle'), duration: 15, placement: 'topRight',
          description: (
            <span data-testid="download-ready-notice">
              {t('download.readyText', { name: task.taskName })}{' '}
              <a onClick={() => void get()}>{t('download.download')}</a>{' · '}<a onClick={open}>{t('shell.downloads')}</a>
            </span>
          ),
        });
      } else if (task.state === ExportState.Failed) {
        notification.warning({
          key, message: t('download.failedTitle'), duration: 15, placement: 'topRight',
          description: <span>{t('download.failedText', { name: task.taskName })} <a onClick={open}>{t('shell.downloads')}</a></span>,
        });
      }
    }
    remember(seen);
    // the list page shows the new state at once
    void qc.invalidateQueries({ queryKey: [system.getDownloadTaskListPage.name] });
  }, [q.data, notification, navigate, qc, t]);

  const label = ready > 0 ? t('download.badgeReady', { count: ready }) : t('shell.downloads');
  return (
    <Tooltip title={label}>
      <Badge count={ready} size="small" offset={[-6, 6]} data-testid="download-badge-count">
        <Button type="text" icon={<DownloadOutlined />} onClick={() => navigate('/card/downloadtask/list')} aria-label={label} data-testid="download-badge" />
      </Badge>
    </Tooltip>
  );
}
