import type { FastifyInstance } from 'fastify';
import {
  FirewallAction, FirewallAddressType, FirewallDirection, FirewallPolicyStatus, FirewallProtocol, Operator, OperatorGoodsStatus,
  OperatorGoodsType, QuotaUnit, RoamingZone, UnicomPlanStatus, netconfig, type Endpoint,
} from '@lynx/contract';
import { bind } from '../../../platform/http.ts';
import { bindExport, sizeColumns } from '../../../platform/exports.ts';
import type { AppDeps } from '../../../app.ts';
import { denied } from '../../../platform/errors.ts';
import { isStaff, type Actor } from '../../../platform/context.ts';
import { FirewallService } from './firewall.ts';
import { OperatorGoodsService } from './goods.ts';
import { UnicomPlanService } from './unicom.ts';

/**
 * Firewall policies and address books, operator rate plan import, China Unicom communication plans.
 * Operator staff configuration: customers are refused here even if a role gives them the codes.
 */
const { NetconfigPerm } = netconfig;

export function netconfigRoutes(app: FastifyInstance, deps: AppDeps) {
  const firewall = new FirewallService(deps.db);
  const goods = new OperatorGoodsService(deps.db);
  const unicom = new UnicomPlanService(deps.db);
  const staffOnly = (actor: Actor) => {
    if (!isStaff(actor)) throw denied();
  };

  // firewall address books
  bind(app, deps, netconfig.getFirewallAddressPage, (b, ctx) => (staffOnly(ctx.actor), firewall.addressPage(b)));
  bind(app, deps, netconfig.addFirewallAddress, (b, ctx) => (staffOnly(ctx.actor), firewall.addAddress(b, ctx)));
  bind(app, deps, netconfig.updateFirewallAddress, async (b, ctx) => (staffOnly(ctx.actor), await firewall.updateAddress(b, ctx), null));
  bind(app, deps, netconfig.deleteFirewallAddress, async (b, ctx) => (staffOnly(ctx.actor), await firewall.deleteAddress(b.addressId, ctx), null));

  // firewall policies
  bind(app, deps, netconfig.getFirewallPolicyPage, (b, ctx) => (staffOnly(ctx.actor), firewall.policyPage(b)));
  bind(app, deps, netconfig.getFirewallPolicyDetail, (b, ctx) => (staffOnly(ctx.actor), firewall.policyDetail(b.policyId)));
  bind(app, deps, netconfig.addFirewallPolicy, (b, ctx) => (staffOnly(ctx.actor), firewall.addPolicy(b, ctx)));
  bind(app, deps, netconfig.updateFirewallPolicy, async (b, ctx) => (staffOnly(ctx.actor), await firewall.updatePolicy(b, ctx), null));
  bind(app, deps, netconfig.deleteFirewallPolicy, async (b, ctx) => (staffOnly(ctx.actor), await firewall.deletePolicy(b.policyId, ctx), null));

  // operator rate plans (operatorsGoods), shared by the Operator and Stock screens
  bind(app, deps, netconfig.getOperatorGoodsList, (b, ctx) => (staffOnly(ctx.actor), goods.list(b)));
  bind(app, deps, netconfig.getOperatorPackageList, (b, ctx) => (staffOnly(ctx.actor), goods.packageOptions(b)));
  bind(app, deps, netconfig.importOperatorGoods, (_b, ctx, req) => (staffOnly(ctx.actor), goods.import(req, ctx)));
  bind(app, deps, netconfig.downloadOperatorGoodsTemplate, (b, ctx, _req, reply) => (staffOnly(ctx.actor), goods.template(b, ctx, reply)));
  bind(app, deps, netconfig.switchOperatorGoods, async (b, ctx) => (staffOnly(ctx.actor), await goods.switchStatus(b, ctx), null));
  bind(app, deps, netconfig.deleteOperatorGoods, (b, ctx) => (staffOnly(ctx.actor), goods.delete(b.goodsIds, ctx)));

  // China Unicom communication plans
  bind(app, deps, netconfig.getUnicomApnOptions, (_b, ctx) => (staffOnly(ctx.actor), unicom.apnOptions()));
  bind(app, deps, netconfig.getUnicomCommPlanPage, (b, ctx) => (staffOnly(ctx.actor), unicom.page(b)));
  bind(app, deps, netconfig.getUnicomCommPlanDetail, (b, ctx) => (staffOnly(ctx.actor), unicom.detail(b.planId)));
  bind(app, deps, netconfig.addUnicomCommPlan, (b, ctx) => (staffOnly(ctx.actor), unicom.add(b, ctx)));
  bind(app, deps, netconfig.updateUnicomCommPlan, async (b, ctx) => (staffOnly(ctx.actor), await unicom.update(b, ctx), null));
  bind(app, deps, netconfig.deleteUnicomCommPlan, async (b, ctx) => (staffOnly(ctx.actor), await unicom.delete(b.planId, ctx), null));

  // exports (download tasks), each with the screen's own filters and rules
  const exportOf = (wrapper: Endpoint, list: Endpoint) => bindExport(app, deps, wrapper, list, staffOnly);
  exportOf(netconfig.exportFirewallPolicies, netconfig.getFirewallPolicyPage);
  exportOf(netconfig.exportFirewallAddresses, netconfig.getFirewallAddressPage);
  exportOf(netconfig.exportOperatorGoods, netconfig.getOperatorGoodsList);
  exportOf(netconfig.exportUnicomCommPlans, netconfig.getUnicomCommPlanPage);
  const addressColumns = [
    { key: 'addressName', title: { zh: '地址名称', en: 'Address name' } },
    { key: 'addressType', title: { zh: '地址类型', en: 'Address type' }, enum: FirewallAddressType },
    { key: 'address', title: { zh: '地址', en: 'Address' } },
    { key: 'policyCount', title: { zh: '引用策略数', en: 'Used by policies' }, type: 'number' as const },
    { key: 'description', title: { zh: '描述', en: 'Description' } },
    { key: 'createdBy', title: { zh: '创建人', en: 'Created by' } },
    { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' as const },
  ];
  deps.exports.register(netconfig.getFirewallAddressPage, {
    title: { zh: '防火墙地址簿', en: 'Firewall addresses' },
    filters: {
      addressScope: { title: { zh: '地址簿', en: 'Address book' }, options: { srcaddr: { zh: '源地址', en: 'Source addresses' }, dstaddr: { zh: '目的地址', en: 'Target addresses' } } },
      addressName: { title: { zh: '地址名称', en: 'Address name' } },
      addressType: { title: { zh: '地址类型', en: 'Address type' }, enum: FirewallAddressType },
      ip: { title: { zh: 'IP', en: 'IP' } },
    },
    perm: NetconfigPerm.FirewallExport,
    page: (f, actor) => (staffOnly(actor), firewall.addressPage(f)),
    columns: addressColumns,
  });
  deps.exports.register(netconfig.getFirewallPolicyPage, {
    title: { zh: '防火墙策略', en: 'Firewall policies' },
    filters: {
      policyName: { title: { zh: '策略名称', en: 'Policy name' } },
      action: { title: { zh: '动作', en: 'Action' }, enum: FirewallAction },
      protocol: { title: { zh: '协议', en: 'Protocol' }, enum: FirewallProtocol },
      status: { title: { zh: '状态', en: 'Status' }, enum: FirewallPolicyStatus },
    },
    perm: NetconfigPerm.FirewallExport,
    page: (f, actor) => (staffOnly(actor), firewall.policyPage(f)),
    columns: [
      { key: 'policyName', title: { zh: '策略名称', en: 'Policy name' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'direction', title: { zh: '方向', en: 'Direction' }, enum: FirewallDirection },
      { key: 'action', title: { zh: '动作', en: 'Action' }, enum: FirewallAction },
      { key: 'protocol', title: { zh: '协议', en: 'Protocol' }, enum: FirewallProtocol },
      { key: 'sourceText', title: { zh: '源地址', en: 'Source addresses' } },
      { key: 'targetText', title: { zh: '目标地址', en: 'Target addresses' } },
      { key: 'ports', title: { zh: '端口', en: 'Ports' } },
      { key: 'priority', title: { zh: '优先级', en: 'Priority' }, type: 'number' },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: FirewallPolicyStatus },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
  deps.exports.register(netconfig.getOperatorGoodsList, {
    title: { zh: '运营商套餐', en: 'Operator rate plans' },
    filters: {
      goodsCode: { title: { zh: '套餐编码', en: 'Plan code' } },
      goodsName: { title: { zh: '套餐名称', en: 'Plan name' } },
      goodsType: { title: { zh: '套餐类型', en: 'Plan type' }, enum: OperatorGoodsType },
      status: { title: { zh: '状态', en: 'Status' }, enum: OperatorGoodsStatus },
    },
    page: (f, actor) => (staffOnly(actor), goods.list(f)),
    columns: [
      { key: 'goodsCode', title: { zh: '运营商套餐编码', en: 'Operator plan code' } },
      { key: 'goodsName', title: { zh: '套餐名称', en: 'Plan name' } },
      { key: 'operatorId', title: { zh: '运营商', en: 'Operator' }, enum: Operator },
      { key: 'goodsType', title: { zh: '套餐类型', en: 'Plan type' }, enum: OperatorGoodsType },
      { key: 'quota', title: { zh: '额度', en: 'Quota' }, type: 'number' },
      { key: 'quotaUnit', title: { zh: '额度单位', en: 'Quota unit' }, enum: QuotaUnit },
      { key: 'validityDays', title: { zh: '有效期（天）', en: 'Validity (days)' }, type: 'number' },
      { key: 'price', title: { zh: '价格（元）', en: 'Price (CNY)' }, type: 'money' },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: OperatorGoodsStatus },
      { key: 'createdBy', title: { zh: '导入人', en: 'Imported by' } },
      { key: 'createdAt', title: { zh: '导入时间', en: 'Imported' }, type: 'datetime' },
    ],
  });
  deps.exports.register(netconfig.getUnicomCommPlanPage, {
    title: { zh: '联通通信计划', en: 'China Unicom communication plans' },
    filters: {
      planName: { title: { zh: '计划名称', en: 'Plan name' } },
      planCode: { title: { zh: '计划编码', en: 'Plan code' } },
      roamingZone: { title: { zh: '漫游区域', en: 'Roaming zone' }, enum: RoamingZone },
      status: { title: { zh: '状态', en: 'Status' }, enum: UnicomPlanStatus },
    },
    page: (f, actor) => (staffOnly(actor), unicom.page(f)),
    columns: [
      { key: 'planName', title: { zh: '计划名称', en: 'Plan name' } },
      { key: 'planCode', title: { zh: '计划编码', en: 'Plan code' } },
      { key: 'dataEnabled', title: { zh: '数据', en: 'Data' } },
      { key: 'smsEnabled', title: { zh: '短信', en: 'SMS' } },
      { key: 'voiceEnabled', title: { zh: '语音', en: 'Voice' } },
      { key: 'apnName', title: { zh: 'APN', en: 'APN' } },
      { key: 'roamingZone', title: { zh: '漫游区域', en: 'Roaming zone' }, enum: RoamingZone },
      ...sizeColumns('dataLimitMb', { zh: '数据上限', en: 'Data limit' }, 'MB'),
      { key: 'smsLimit', title: { zh: '短信上限（条）', en: 'SMS limit' }, type: 'number' },
      { key: 'speedLimitKbps', title: { zh: '限速（kbps）', en: 'Speed limit (kbps)' }, type: 'number' },
      { key: 'billingDay', title: { zh: '账期起始日', en: 'Billing period start day' }, type: 'number' },
      { key: 'status', title: { zh: '状态', en: 'Status' }, enum: UnicomPlanStatus },
      { key: 'description', title: { zh: '描述', en: 'Description' } },
      { key: 'updatedAt', title: { zh: '更新时间', en: 'Updated' }, type: 'datetime' },
    ],
  });
}
