import type zh from '../zh/retail.ts';
import type { Messages } from '../types.ts';

const en: Messages<typeof zh> = {};
export default en;
