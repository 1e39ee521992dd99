import type { useAppProps } from 'antd/es/app/context';

type Api = Pick<useAppProps, 'message' | 'notification' | 'modal'>;
let api: Api | null = null;

/** Notifications come from App.useApp() (theme and locale aware); the shell hands them over here. */
export const setFeedback = (a: Api) => {
  api = a;
  waiting.splice(0).forEach((fn) => fn(a));
};
const waiting: ((a: Api) => void)[] = [];
/** Runs fn with the notifications once the shell has handed them over (at once when it has). */
export const withFeedback = (fn: (a: Api) => void) => {
  if (api) fn(api);
  else waiting.push(fn);
};
export const feedback = () => api;

type Navigate = (to: string) => void | Promise<void>;
let navigate: Navigate = (to) => window.location.assign(to);
export const setNavigate = (fn: Navigate) => {
  navigate = fn;
};
export const goTo = (to: string): Promise<void> => Promise.resolve(navigate(to));
