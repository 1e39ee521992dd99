import { useState, type ReactNode } from 'react';
import { App, Upload } from 'antd';
import { UploadOutlined } from '@ant-design/icons';
import { FILE_RULES, formatValidationMessage, validateUpload } from '@lynx/contract';
import { currentLang } from '../locales/i18n.ts';

/**
 * Picks one image and checks it against the spec's rule for its use (logo: jpg/png under 1500 KB; payment
 * proof: JPG/PNG/GIF under 2 MB; content image: under 1 MB) before `onFile` uploads it. The server checks
 * again, including the real content.
 */
export function ImageUpload({ use, onFile, disabled, children }: {
  use: keyof typeof FILE_RULES; onFile: (file: File) => Promise<void>; disabled?: boolean; children?: ReactNode;
}) {
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const rule = FILE_RULES[use];
  return (
    <Upload.Dragger
      accept={rule.exts.map((e) => `.${e}`).join(',')}
      showUploadList={false}
      disabled={disabled || busy}
      beforeUpload={(file) => {
        const err = validateUpload(rule, { name: file.name, size: file.size, mimeType: file.type });
        if (err) {
          message.error(formatValidationMessage(err, currentLang()));
          return Upload.LIST_IGNORE;
        }
        setBusy(true);
        void onFile(file).finally(() => setBusy(false));
        return false;
      }}
      data-testid={`upload-${use}`}
    >
      <p><UploadOutlined style={{ fontSize: 28 }} /></p>
      {children}
    </Upload.Dragger>
  );
}
