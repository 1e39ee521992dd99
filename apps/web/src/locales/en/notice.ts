import type zh from '../zh/notice.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  title: 'Announcements',
  keyword: 'Keyword',
  keywordPlaceholder: 'Chinese or English text',
  state: 'State',
  content: 'Chinese text',
  englishContent: 'English text',
  sendMode: 'Send mode',
  sendTime: 'Send time',
  endDate: 'End date',
  createdBy: 'Created by',
  add: 'Add announcement',
  edit: 'Edit announcement',
  deleteTitle: 'Delete this announcement?',
  deleteActive: 'It is showing in the header now and disappears at once.',
  immediateHint: 'Immediate: shown in the header as soon as it is saved; the send time is the save time.',
  timedHint: 'Timed: shown in the header from the send time.',
  endAfterSend: 'The end date must be after the send time',
  endAfterNow: 'The end date must be in the future',
  bannerHint: 'The newest announcement whose end date is in the future scrolls in every user\'s header.',
  emptyHint: 'Click "Add announcement" to publish one; it scrolls in the header until its end date',
};
export default en;
