import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { ExportState, system, type Endpoint } from '@lynx/contract';
import { renderAt } from '../test/render.tsx';
import { setLanguage } from '../locales/i18n.ts';
import { BADGE_BUSY_MS, BADGE_IDLE_MS, DownloadBadge, badgeInterval } from './DownloadBadge.tsx';

const call = vi.hoisted(() => vi.fn());
vi.mock('../request/http.ts', async (importOriginal) => ({ ...(await importOriginal<object>()), call }));

const TASK = '6f1c2b0e-1d2c-4e5f-8a9b-0c1d2e3f4a5b';
let badge = { ready: 2, inProcess: 0, recent: [{ taskId: TASK, taskName: 'Card list', state: ExportState.Succeeded, finishedAt: '2026-11-25T08:00:00.000Z' }] };

const show = () => renderAt('/home/index', [
  { path: '/home/index', element: <DownloadBadge /> },
  { path: '/card/downloadtask/list', element: <div data-testid="download-list">tasks</div> },
]);

beforeEach(async () => {
  sessionStorage.clear();
  await setLanguage('en');
  call.mockReset();
  call.mockImplementation(async (e: Endpoint) => (e.name === system.getDownloadBadge.name ? badge : null));
});

describe('the header download badge', () => {
  it('shows how many files are ready and tells once that a task became ready', async () => {
    show();
    await waitFor(() => expect(screen.getByTestId('download-badge-count')).toHaveTextContent('2'));
    expect(screen.getByTestId('download-badge')).toHaveAttribute('aria-label', 'Download tasks: 2 file(s) ready to download');
    expect(await screen.findByText('Export ready')).toBeInTheDocument();
    expect(screen.getByTestId('download-ready-notice')).toHaveTextContent('"Card list" is ready.');
    // told once: the task is remembered for this browser tab
    expect(JSON.parse(sessionStorage.getItem('lx_download_notified')!)).toEqual([TASK]);
  });

  it('does not tell again about a task it already told about', async () => {
    sessionStorage.setItem('lx_download_notified', JSON.stringify([TASK]));
    show();
    await waitFor(() => expect(screen.getByTestId('download-badge-count')).toHaveTextContent('2'));
    expect(screen.queryByText('Export ready')).toBeNull();
  });

  it('shows no number when nothing is ready, and opens the download tasks', async () => {
    badge = { ready: 0, inProcess: 0, recent: [] };
    show();
    await waitFor(() => expect(call).toHaveBeenCalled());
    expect(screen.getByTestId('download-badge-count').querySelector('.ant-badge-count')).toBeNull();
    fireEvent.click(screen.getByTestId('download-badge'));
    expect(await screen.findByTestId('download-list')).toBeInTheDocument();
  });

  it('polls every 5 s only while an export is in process, else once a minute', () => {
    expect(badgeInterval({ inProcess: 1 })).toBe(BADGE_BUSY_MS);
    expect(badgeInterval({ inProcess: 0 })).toBe(BADGE_IDLE_MS);
    expect(badgeInterval(undefined)).toBe(BADGE_IDLE_MS);
    expect(BADGE_IDLE_MS / BADGE_BUSY_MS).toBe(12);
  });
});
