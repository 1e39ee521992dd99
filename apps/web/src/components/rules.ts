import type { Rule, RuleObject } from 'antd/es/form';
import { formatValidationMessage, type ValidationResult } from '@lynx/contract';
import i18n, { currentLang } from '../locales/i18n.ts';

/** Turns a contract validator into an antd form rule, so forms and server check the same thing. */
export function ruleOf(validate: (value: any) => ValidationResult, opts: { optional?: boolean } = {}): RuleObject {
  return {
    validator: async (_rule, value) => {
      if (opts.optional && (value === undefined || value === null || value === '')) return;
      const err = validate(value);
      if (err) throw new Error(formatValidationMessage(err, currentLang()));
    },
  };
}

/** Spec §5: required fields prompt 'please select or enter'. */
export const required = (): Rule => ({ required: true, message: i18n.t('common.required') });
