import { useTranslation } from 'react-i18next';
import { auth, validatePassword, validatePasswordPair } from '@lynx/contract';
import { call } from '../request/http.ts';
import { EditForm } from '../components/EditForm.tsx';

/** Change your own password from the user menu; the server ends your other sessions. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <EditForm<{ oldPassword: string; newPassword: string; confirmPassword: string }>
      open={open}
      title={t('shell.changePassword')}
      onClose={onClose}
      onSubmit={(v) => call(auth.resetPassword, v)}
      fields={[
        { name: 'oldPassword', label: t('auth.oldPassword'), type: 'password', required: true, autoComplete: 'current-password' },
        { name: 'newPassword', label: t('auth.newPassword'), type: 'password', required: true, validate: validatePassword, extra: t('auth.passwordRule'), autoComplete: 'new-password' },
        {
          name: 'confirmPassword', label: t('auth.confirmPassword'), type: 'password', required: true, dependencies: ['newPassword'],
          validateWith: (v, get) => validatePasswordPair(get('newPassword'), v), autoComplete: 'new-password',
        },
      ]}
    />
  );
}
