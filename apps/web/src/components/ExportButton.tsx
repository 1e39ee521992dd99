import { useState } from 'react';
import { LiveText } from '../request/LiveText.tsx';
import { App, Button, Dropdown, Space } from 'antd';
import { DownOutlined, DownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { ExportFormat, pathOf, system, type Endpoint } from '@lynx/contract';
import { call, downloadFile } from '../request/http.ts';

/**
 * Exports a list with its current filters (xlsx or csv): through the generic task endpoint naming the list
 * (`source`), or through the list's own export endpoint (`via`, filters + format). Up to 10,000 rows the server
 * writes the file during the call and it downloads at once; a bigger export becomes a download task, followed by the
 * header's download badge.
 */
export function ExportButton({ source, via, filters }: { source?: Endpoint; via?: Endpoint; filters: Record<string, unknown> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const run = async (format: number) => {
    setBusy(true);
    try {
      const { current: _c, pageSize: _p, ...rest } = filters;
      const created = (via
        ? await call(via, { ...rest, format } as never)
        : source ? await call(system.createExportTask, { source: source.name, filters: rest, format }) : null) as { taskId: string; direct?: boolean } | null;
      if (created?.direct) {
        await downloadFile(pathOf(system.downloadExportFile), { taskId: created.taskId });
        message.success(<LiveText k="common.exportDownloaded" />);
      }
      // the download task page (kept alive in a tab) and the header badge show the new task at once
      void qc.invalidateQueries({ queryKey: [system.getDownloadTaskListPage.name] });
      void qc.invalidateQueries({ queryKey: [system.getDownloadBadge.name] });
      if (created?.direct) return;
      message.success({
        content: (
          <span>
            {t('common.exportCreated')}{' '}
            <a onClick={() => navigate('/card/downloadtask/list')}>{t('common.goToDownloads')}</a>
          </span>
        ),
        duration: 5,
      });
    } catch {
      /* shown by the request layer */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Space.Compact>
      <Button loading={busy} icon={<DownloadOutlined />} onClick={() => void run(ExportFormat.Xlsx)} data-testid="export-button">
        {t('common.export')}
      </Button>
      <Dropdown menu={{ items: [{ key: 'csv', label: t('common.exportCsv') }], onClick: () => void run(ExportFormat.Csv) }}>
        <Button icon={<DownOutlined />} disabled={busy} aria-label={t('common.exportCsv')} />
      </Dropdown>
    </Space.Compact>
  );
}
