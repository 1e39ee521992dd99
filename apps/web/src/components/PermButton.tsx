import { Button, type ButtonProps } from 'antd';
import { useSession } from '../stores/session.ts';

/** One code, or an endpoint's code list of which any one is enough (contract `perm`: [1000002, 8020000]). */
export type PermSpec = number | readonly number[] | null | undefined;

/** True when the permission set satisfies the spec; no spec (undefined / null) means any signed-in user. */
export function holds(permissions: ReadonlySet<number>, perm: PermSpec): boolean {
  if (perm === undefined || perm === null) return true;
  if (typeof perm === 'number') return permissions.has(perm);
  return perm.some((p) => permissions.has(p));
}

/** A button shown only to users holding its permission code (the server refuses the call anyway). */
export function PermButton({ perm, ...props }: ButtonProps & { perm: number | readonly number[] }) {
  const has = useSession((s) => holds(s.permissions, perm));
  return has ? <Button {...props} /> : null;
}

export function usePerm(perm: PermSpec): boolean {
  return useSession((s) => holds(s.permissions, perm));
}
