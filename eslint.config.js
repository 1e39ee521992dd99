import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

// One time zone (docs/time-zone.md): business days, cycles and shown times follow the product's business zone, never
// the host's or the browser's. These APIs read the host zone; the shared helpers in packages/contract/src/format/
// datetime.ts (and apps/web/src/components/businessTime.ts for pickers) are the way. A rare legitimate use (a
// number's thousands, a picker's own wall clock) is allowed with an eslint-disable comment saying why.
const HOST_ZONE = 'reads the host/browser time zone: use the business-zone helpers (formatDateTime, businessDay, calendarParts, zonedTime; pickers: businessTime.ts)';
const hostZoneRules = {
  'no-restricted-properties': ['error',
    ...['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString', 'getHours', 'getDate', 'getMonth', 'getFullYear', 'getDay',
      'getMinutes', 'getSeconds', 'getTimezoneOffset', 'setHours', 'setDate', 'setMonth', 'setFullYear', 'setMinutes']
      .map((property) => ({ property, message: `${property} ${HOST_ZONE}` })),
  ],
  'no-restricted-syntax': ['error',
    { selector: "NewExpression[callee.name='Date'][arguments.length>1]", message: `new Date(y, m, d) ${HOST_ZONE}` },
    { selector: "CallExpression[callee.name='dayjs'][arguments.length=0]", message: `dayjs() is the browser's clock and zone: use businessNow()/businessTodayPicker() from businessTime.ts` },
    { selector: "CallExpression[callee.property.name='tz']", message: `dayjs.tz: use the business-zone helpers in businessTime.ts` },
  ],
};

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'apps/server/src/db/migrations/**', 'coverage/**', 'apps/web/e2e/artifacts/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/server/src/**/*.ts', 'packages/contract/src/**/*.ts'],
    ignores: ['**/*.test.{ts,tsx}', 'apps/web/src/test/**'],
    rules: hostZoneRules,
  },
);
