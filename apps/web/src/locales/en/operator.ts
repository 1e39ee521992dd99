import type zh from '../zh/operator.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {
  name: {
    title: 'Operators',
    code: 'Operator code',
    name: 'Operator name',
    billingDay: 'Billing period starts',
    billingDayValue: '{{day}} of each month',
    apnCount: 'APNs',
    emptyHint: 'No operators yet. Operators appear here once the platform has set them up',
  },
  apn: {
    title: 'APNs',
    apnName: 'APN name',
    operator: 'Operator',
    apnType: 'APN type',
    ipAllocation: 'IP allocation',
    status: 'Status',
    remark: 'Remark',
    createdBy: 'Created by',
    updatedAt: 'Updated',
    add: 'Add APN',
    edit: 'Edit APN',
    apnNameHint: '1-63 characters: dot-separated labels of letters, digits and hyphens, not starting or ending with a hyphen, e.g. cmiot.example',
    apnNameInvalid: 'Invalid APN name: use only letters, digits, hyphens and dots; labels cannot be empty or start or end with a hyphen',
    operatorLocked: 'The operator of an existing APN cannot be changed',
    emptyHint: 'Adjust the filters, or click "Add APN" to create one',
  },
  byOperator: {
    title: 'APNs of {{operator}}',
    tab: '{{name}} ({{count}})',
    noOperators: 'No operators yet. Once operators are set up you can browse their APNs here',
    emptyHint: 'This operator has no APNs yet. Add one under "APN management"',
  },
};

export default en;
