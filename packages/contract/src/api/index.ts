import * as auth from './auth.ts';
import * as account from './account.ts';
import * as system from './system.ts';
import * as role from './role.ts';
import * as notice from './notice.ts';
import * as apiservice from './apiservice.ts';
import * as network from './network.ts';
import * as commserv from './commserv.ts';
import * as plan from './plan.ts';
import * as opconfig from './opconfig.ts';
import * as netconfig from './netconfig.ts';
import * as retail from './retail.ts';
import * as carddata from './carddata.ts';
import * as carddetail from './carddetail.ts';
import * as cardactions from './cardactions.ts';
import * as diagnose from './diagnose.ts';
import * as batch from './batch.ts';
import * as cardcat from './cardcat.ts';
import * as usage from './usage.ts';
import * as pool from './pool.ts';
import * as search from './search.ts';
import * as home from './home.ts';
import * as capital from './capital.ts';
import * as recharge from './recharge.ts';
import * as withdraw from './withdraw.ts';
import * as credit from './credit.ts';
import * as bill from './bill.ts';
import * as report from './report.ts';
import * as simreport from './simreport.ts';
import * as billautomate from './billautomate.ts';
import * as withholding from './withholding.ts';
import * as channelbill from './channelbill.ts';
import * as operatebill from './operatebill.ts';
import * as datapush from './datapush.ts';
import * as autorule from './autorule.ts';
import * as webhook from './webhook.ts';
import * as sms from './sms.ts';
import * as custoperation from './custoperation.ts';
import * as simtraffic from './simtraffic.ts';
import * as stock from './stock.ts';
import * as dsim from './dsim.ts';
import * as euicc from './euicc.ts';
import * as channelcard from './channelcard.ts';
import * as resell from './resell.ts';
import type { Endpoint } from './endpoint.ts';

export * from './endpoint.ts';
export { auth, account, system, role, notice, apiservice, network, commserv, plan, opconfig, netconfig, retail, diagnose, carddata, carddetail, cardactions, batch, cardcat, usage, pool, search, home, capital, withdraw, credit, recharge, bill, report, simreport, withholding, billautomate, channelbill, operatebill, datapush, autorule, webhook, sms, custoperation, euicc, dsim, stock, simtraffic, channelcard, resell };

const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' && v !== null && 'name' in v && 'method' in v && 'response' in v && 'kind' in v;

/** Every endpoint of the product, in one list: the server binds them, the OpenAPI document lists them. */
export const endpoints: Endpoint[] = [auth, account, system, role, notice, apiservice, network, commserv, plan, opconfig, netconfig, retail, diagnose, carddata, carddetail, cardactions, batch, cardcat, usage, pool, search, home, capital, withdraw, credit, recharge, bill, report, simreport, withholding, billautomate, channelbill, operatebill, datapush, autorule, webhook, sms, custoperation, euicc, dsim, stock, simtraffic, channelcard, resell].flatMap((m) => Object.values(m).filter(isEndpoint));
