import { RechargeAuditState } from '@lynx/contract';

/**
 * Links into the top-up list that open it on the reviews to do (the header's review badge writes them, the list
 * reads them). Kept apart from the list page so the header does not load the page to link to it.
 */
export const RECHARGE_LIST_PATH = '/business/recharge/list';

/** The query parameter: `overdue` (waiting past the due time) or `pending` (all waiting for review). */
export const REVIEW_PARAM = 'review';
export type ReviewView = 'overdue' | 'pending';

/** The list's search-form values that show one view. */
export const REVIEW_VIEW_FILTERS: Record<ReviewView, Record<string, unknown>> = {
  overdue: { overdue: 1 },
  pending: { auditState: RechargeAuditState.Submitted },
};

export const reviewViewOf = (value: string | null): ReviewView | null => (value === 'overdue' || value === 'pending' ? value : null);

/** Where the badge leads: the overdue ones when there are some, else all waiting ones, else the plain list. */
export function reviewListUrl(summary: { pending: number; overdue: number } | null | undefined): string {
  if (summary && summary.overdue > 0) return `${RECHARGE_LIST_PATH}?${REVIEW_PARAM}=overdue`;
  if (summary && summary.pending > 0) return `${RECHARGE_LIST_PATH}?${REVIEW_PARAM}=pending`;
  return RECHARGE_LIST_PATH;
}
