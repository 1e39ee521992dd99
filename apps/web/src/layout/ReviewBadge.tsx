import { Badge, Button, Tooltip, theme } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Perm, STAFF_ROLE_TYPES, formatDateTime, recharge } from '@lynx/contract';
import { call } from '../request/http.ts';
import { holds } from '../components/PermButton.tsx';
import { zoneLabel } from '../components/businessTime.ts';
import { useSession } from '../stores/session.ts';
import { reviewListUrl } from '../pages/business/recharge/reviewLink.ts';

/** How often the badge asks: reviews are due in working days, so every two minutes is soon enough. */
export const REVIEW_BADGE_MS = 120_000;

/**
 * Whether the viewer reviews public top-ups: the review code (8040001) with the list it works on (8040000), and a
 * staff role, since the server lets only staff review (a customer's own transfers are never its to approve).
 */
export const isReviewer = (s: { permissions: ReadonlySet<number>; roleId: number | null }) =>
  holds(s.permissions, Perm.BusinessRechargeAudit) && holds(s.permissions, Perm.BusinessRecharge) && s.roleId !== null && STAFF_ROLE_TYPES.includes(s.roleId);

/**
 * The header's reminder for finance (docs/payments.md): how many public top-ups wait for review, red once one is
 * past its due time. The same summary query as the list's banner, so a review done on the list refreshes both.
 * Not rendered, and nothing asked, for anyone who does not review; a quiet icon while nothing waits, so the
 * header does not shift as the count comes and goes.
 */
export function ReviewBadge() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token } = theme.useToken();
  const reviewer = useSession(isReviewer);
  const q = useQuery({
    queryKey: [recharge.getReviewSummary.name],
    queryFn: ({ signal }) => call(recharge.getReviewSummary, {}, { signal, silent: true }),
    enabled: reviewer,
    refetchInterval: REVIEW_BADGE_MS,
  });
  if (!reviewer) return null;

  const s = q.data;
  const pending = s?.pending ?? 0;
  const overdue = s?.overdue ?? 0;
  const B = (k: string, o?: Record<string, unknown>) => t(`money.reviewBadge.${k}`, o);
  const label = pending === 0 ? B('none') : overdue > 0 ? B('overdue', { pending, overdue }) : B('pending', { pending });
  const tip = (
    <div data-testid="review-badge-tip">
      <div>{label}</div>
      {s?.nextDueAt && <div>{B('nextDue', { due: formatDateTime(s.nextDueAt), zone: zoneLabel() })}</div>}
      {pending > 0 && <div>{overdue > 0 ? B('openOverdue') : B('openPending')}</div>}
    </div>
  );
  return (
    <Tooltip title={tip}>
      <Badge count={pending} size="small" offset={[-6, 6]} color={overdue > 0 ? token.colorError : token.colorPrimary}
        data-testid="review-badge-count" data-overdue={overdue > 0 ? 'true' : 'false'}>
        <Button type="text" icon={<AuditOutlined style={overdue > 0 ? { color: token.colorError } : undefined} />} aria-label={label}
          onClick={() => navigate(reviewListUrl(s))} data-testid="review-badge" />
      </Badge>
    </Tooltip>
  );
}
