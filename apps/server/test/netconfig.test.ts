import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import ExcelJS from 'exceljs';
import {
  ApnType, ErrorCode, ExportFormat, ExportState, FirewallAction, FirewallAddressType, FirewallDirection, FirewallProtocol, IpAllocation, Operator,
  OperatorGoodsStatus, OperatorGoodsType, QuotaUnit, RoamingZone,
} from '@lynx/contract';
import { backends, multipart, startTestApp, waitFor, type TestApp } from './harness.ts';

describe.each(backends)('network configuration (firewall, operator plan import, Unicom plans) on %s', (backend) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await startTestApp(backend);
    admin = await t.login('admin');
  });
  afterAll(() => t?.stop());

  const ok = async (endpoint: string, body: unknown, token = admin) => {
    const r = await t.call(endpoint, body, { token });
    expect(r.body.success, `${endpoint}: ${r.body.msg}`).toBe(true);
    return r.body.data;
  };
  const addr = (scope: 'srcaddr' | 'dstaddr', over: Record<string, unknown> = {}) => ({
    addressScope: scope, addressName: `addr-${Math.random().toString(36).slice(2, 8)}`, addressType: FirewallAddressType.Single, ipAddress: '10.1.1.1', ...over,
  });
  const policy = (src: number[], dst: number[], over: Record<string, unknown> = {}) => ({
    policyName: `policy-${Math.random().toString(36).slice(2, 8)}`, operatorId: Operator.ChinaMobile, direction: FirewallDirection.Outbound,
    action: FirewallAction.Permit, protocol: FirewallProtocol.Tcp, srcAddressIds: src, dstAddressIds: dst, ports: '443', priority: 10, ...over,
  });
  const auditCount = async (entity: string, entityId?: string | number) =>
    (await ok('system/audit/getListPage', { entity, ...(entityId !== undefined && { entityId: String(entityId) }) })).total as number;

  describe('firewall address books', () => {
    it('refuses malformed IPv4 addresses, naming the field (spec §5: four-part format)', async () => {
      for (const ip of ['256.1.1.1', '10.1.1', '10.1.1.1.1', '01.2.3.4', 'a.b.c.d', '10.1.1.1 ']) {
        const r = await t.call('network/firewall/address/add', addr('srcaddr', { ipAddress: ip.trim() === ip ? ip : `${ip}x` }), { token: admin });
        expect(r.body.errorCode, ip).toBe(ErrorCode.Validation);
        expect(r.body.data).toEqual({ field: 'ipAddress' });
      }
      const zh = await t.call('network/firewall/address/add', addr('srcaddr', { ipAddress: '300.0.0.1' }), { token: admin, lang: 'zh' });
      expect(zh.body.msg).toBe('字段 ipAddress：IP 地址格式错误：300.0.0.1');
      const cidr = await t.call('network/firewall/address/add', addr('dstaddr', { addressType: FirewallAddressType.Cidr, ipAddress: '10.0.0.1/24' }), { token: admin });
      expect(cidr.body.msg).toBe('Field ipAddress: Network address should be 10.0.0.0/24');
      expect((await t.call('network/firewall/address/add', addr('dstaddr', { addressType: FirewallAddressType.Cidr, ipAddress: '10.0.0.0/33' }), { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    });

    it('refuses a range whose end is not after its start', async () => {
      const range = (startIp: string, endIp: string) => addr('srcaddr', { addressType: FirewallAddressType.Range, ipAddress: undefined, startIp, endIp });
      for (const [a, b] of [['10.0.0.9', '10.0.0.1'], ['10.0.0.5', '10.0.0.5'], ['192.168.1.0', '10.255.255.255']]) {
        const r = await t.call('network/firewall/address/add', range(a, b), { token: admin });
        expect(r.body).toMatchObject({ errorCode: ErrorCode.Validation, msg: 'Field endIp: End IP must be after start IP', data: { field: 'endIp' } });
      }
      expect((await t.call('network/firewall/address/add', range('10.0.0.x', '10.0.0.9'), { token: admin })).body.data).toEqual({ field: 'startIp' });
      // 9.255.255.255 < 10.0.0.0 numerically although "1" < "9" as text
      const created = await ok('network/firewall/address/add', range('9.255.255.255', '10.0.0.1'));
      const page = await ok('network/firewall/address/page', { addressScope: 'srcaddr', ip: '10.0.0.0' });
      expect(page.list.map((a: any) => a.addressId)).toContain(created.addressId);
      const row = page.list.find((a: any) => a.addressId === created.addressId);
      expect(row).toMatchObject({ address: '9.255.255.255-10.0.0.1', ipAddress: null, policyCount: 0, createdBy: 'admin' });
    });

    it('keeps srcaddr and dstaddr apart; names are unique within a book, case-insensitively', async () => {
      await ok('network/firewall/address/add', addr('srcaddr', { addressName: 'Office NAT' }));
      const dup = await t.call('network/firewall/address/add', addr('srcaddr', { addressName: 'office nat', ipAddress: '10.9.9.9' }), { token: admin, lang: 'zh' });
      expect(dup.body).toMatchObject({ errorCode: ErrorCode.FirewallAddressNameTaken, msg: '该地址簿中已有同名地址', data: { field: 'addressName' } });
      // the same name in the target book is another entry
      const target = await ok('network/firewall/address/add', addr('dstaddr', { addressName: 'Office NAT', addressType: FirewallAddressType.Cidr, ipAddress: '172.16.0.0/16' }));
      const src = await ok('network/firewall/address/page', { addressScope: 'srcaddr', addressName: 'office' });
      const dst = await ok('network/firewall/address/page', { addressScope: 'dstaddr', addressName: 'office' });
      expect(src.list.every((a: any) => a.addressScope === 'srcaddr')).toBe(true);
      expect(dst.list.map((a: any) => a.addressId)).toEqual([target.addressId]);
      // CIDR containment search
      expect((await ok('network/firewall/address/page', { addressScope: 'dstaddr', ip: '172.16.200.1' })).list.map((a: any) => a.addressId)).toContain(target.addressId);
      expect((await ok('network/firewall/address/page', { addressScope: 'dstaddr', ip: '172.17.0.1' })).list.map((a: any) => a.addressId)).not.toContain(target.addressId);
      const srcRow = src.list[0];
      // rename onto an existing name is refused; an update keeps the book
      const other = await ok('network/firewall/address/add', addr('srcaddr', { addressName: 'Branch' }));
      const clash = await t.call('network/firewall/address/update', { addressId: other.addressId, addressName: 'OFFICE NAT', addressType: FirewallAddressType.Single, ipAddress: '10.2.2.2' }, { token: admin });
      expect(clash.body.errorCode).toBe(ErrorCode.FirewallAddressNameTaken);
      await ok('network/firewall/address/update', { addressId: srcRow.addressId, addressName: 'Office NAT', addressType: FirewallAddressType.Range, startIp: '10.3.0.1', endIp: '10.3.0.20', description: '出口' });
      const after = (await ok('network/firewall/address/page', { addressScope: 'srcaddr', addressName: 'Office NAT' })).list[0];
      expect(after).toMatchObject({ addressType: FirewallAddressType.Range, ipAddress: null, startIp: '10.3.0.1', endIp: '10.3.0.20', description: '出口', addressScope: 'srcaddr' });
    });
  });

  describe('firewall policies', () => {
    let src: number;
    let dst: number;
    beforeAll(async () => {
      src = (await ok('network/firewall/address/add', addr('srcaddr', { addressName: 'Fleet devices', addressType: FirewallAddressType.Cidr, ipAddress: '10.20.0.0/16' }))).addressId;
      dst = (await ok('network/firewall/address/add', addr('dstaddr', { addressName: 'Telemetry server', ipAddress: '203.0.113.10' }))).addressId;
    });

    it('accepts numeric ports, lists and ranges, and refuses anything else (spec §5: port must be numeric)', async () => {
      const created = await ok('network/firewall/policy/add', policy([src], [dst], { ports: ' 80, 443 ,8000-8080' }));
      const detail = await ok('network/firewall/policy/detail', { policyId: created.policyId });
      expect(detail).toMatchObject({
        ports: '80,443,8000-8080', action: FirewallAction.Permit, status: 1,
        sourceAddresses: [{ addressId: src, addressName: 'Fleet devices', address: '10.20.0.0/16' }],
        targetAddresses: [{ addressId: dst, addressName: 'Telemetry server', address: '203.0.113.10' }],
      });
      const bad: [string, string][] = [
        ['http', 'Field ports: Port must be an integer from 1 to 65535'],
        ['0', 'Field ports: Port must be an integer from 1 to 65535'],
        ['65536', 'Field ports: Port must be an integer from 1 to 65535'],
        ['80,,443', 'Field ports: Port must be an integer from 1 to 65535'],
        ['8080-8000', 'Field ports: End port must be greater than start port'],
        ['8000-8000', 'Field ports: End port must be greater than start port'],
        ['1-65536', 'Field ports: Port must be an integer from 1 to 65535'],
        ['80,80', 'Field ports: Duplicate entry: 80'],
        ['1.5', 'Field ports: Port must be an integer from 1 to 65535'],
      ];
      for (const [ports, msg] of bad) {
        const r = await t.call('network/firewall/policy/add', policy([src], [dst], { ports }), { token: admin });
        expect(r.body, ports).toMatchObject({ errorCode: ErrorCode.Validation, msg, data: { field: 'ports' } });
      }
      const icmp = await t.call('network/firewall/policy/add', policy([src], [dst], { protocol: FirewallProtocol.Icmp, ports: '80' }), { token: admin });
      expect(icmp.body.data).toEqual({ field: 'ports' });
      expect((await t.call('network/firewall/policy/add', policy([src], [dst], { protocol: FirewallProtocol.Icmp, ports: '' }), { token: admin })).body.success).toBe(true);
      expect((await t.call('network/firewall/policy/add', policy([src], [dst], { priority: 0 }), { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    });

    it('takes sources only from srcaddr and targets only from dstaddr', async () => {
      const swapped = await t.call('network/firewall/policy/add', policy([dst], [src]), { token: admin, lang: 'zh' });
      expect(swapped.body).toMatchObject({ errorCode: ErrorCode.FirewallAddressWrongBook, data: { field: 'srcAddressIds' } });
      expect(swapped.body.msg).toContain('Telemetry server');
      const targetAsTarget = await t.call('network/firewall/policy/add', policy([src], [src]), { token: admin });
      expect(targetAsTarget.body).toMatchObject({ errorCode: ErrorCode.FirewallAddressWrongBook, data: { field: 'dstAddressIds' } });
      const missing = await t.call('network/firewall/policy/add', policy([src], [999999]), { token: admin });
      expect(missing.body).toMatchObject({ errorCode: ErrorCode.Validation, data: { field: 'dstAddressIds' } });
      expect((await t.call('network/firewall/policy/add', policy([], [dst]), { token: admin })).body.errorCode).toBe(ErrorCode.Validation);
    });

    it('refuses a duplicate policy name and keeps an address in use from being deleted', async () => {
      const a = (await ok('network/firewall/address/add', addr('dstaddr', { addressName: 'Payment gateway', ipAddress: '198.51.100.7' }))).addressId;
      const p = await ok('network/firewall/policy/add', policy([src], [a], { policyName: 'Allow payments' }));
      const dup = await t.call('network/firewall/policy/add', policy([src], [a], { policyName: 'ALLOW PAYMENTS' }), { token: admin, lang: 'zh' });
      expect(dup.body).toMatchObject({ errorCode: ErrorCode.FirewallPolicyNameTaken, msg: '已有同名防火墙策略', data: { field: 'policyName' } });

      const inUse = await t.call('network/firewall/address/delete', { addressId: a }, { token: admin });
      expect(inUse.body).toMatchObject({ errorCode: ErrorCode.FirewallAddressInUse, data: { policies: ['Allow payments'] } });
      expect(inUse.body.msg).toBe('This address is used by firewall policies (Allow payments); remove it from them before deleting it');
      expect((await ok('network/firewall/address/page', { addressScope: 'dstaddr', addressName: 'Payment gateway' })).list[0].policyCount).toBe(1);

      // edit the policy to stop using it: now the address can go
      await ok('network/firewall/policy/update', { ...policy([src], [dst], { policyName: 'Allow payments', action: FirewallAction.Deny }), policyId: p.policyId });
      expect((await ok('network/firewall/policy/detail', { policyId: p.policyId })).action).toBe(FirewallAction.Deny);
      await ok('network/firewall/address/delete', { addressId: a });
      expect((await t.call('network/firewall/address/delete', { addressId: a }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);

      await ok('network/firewall/policy/delete', { policyId: p.policyId });
      expect((await t.call('network/firewall/policy/detail', { policyId: p.policyId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
      // audit trail: add, update, delete, each with before/after
      expect(await auditCount('firewallPolicy', p.policyId)).toBe(3);
      const trail = await ok('system/audit/getListPage', { entity: 'firewallAddress', entityId: String(a) });
      expect(trail.total).toBe(2);
    });

    it('lists and filters policies with their addresses', async () => {
      await ok('network/firewall/policy/add', policy([src], [dst], { policyName: 'Deny telnet', action: FirewallAction.Deny, ports: '23', priority: 1 }));
      const page = await ok('network/firewall/policy/page', { action: FirewallAction.Deny, policyName: 'telnet' });
      expect(page.list).toHaveLength(1);
      expect(page.list[0]).toMatchObject({ policyName: 'Deny telnet', sourceText: 'Fleet devices(10.20.0.0/16)', targetText: 'Telemetry server(203.0.113.10)' });
    });
  });

  describe('operator rate plan import', () => {
    const HEAD_ZH = '运营商套餐编码,套餐名称,运营商,套餐类型,额度,额度单位,有效期（天）,价格（元）';
    const csv = (lines: string[], head = HEAD_ZH) => Buffer.from(`\ufeff${head}\r\n${lines.join('\r\n')}\r\n`);
    const upload = async (data: Buffer, filename = 'plans.csv', type = 'text/csv', lang: 'zh' | 'en' = 'en', token = admin) => {
      const m = multipart([{ name: 'file', filename, type, data }]);
      const res = await t.app.inject({ method: 'POST', url: `/api/cmp/network/operatorsGoods/add?lang=${lang}`, payload: m.payload, headers: { ...m.headers, authorization: token } });
      return res.json();
    };
    const count = async () => (await ok('network/operatorsGoods/list', { pageSize: 500 })).total as number;

    it('imports nothing when any row is bad and reports every error by row and column', async () => {
      const before = await count();
      const body = await upload(
        csv([
          'CU-1G,联通 1GB 月包,中国联通,流量,1,GB,30,9.9',
          ',无编码,中国联通,流量,1,GB,30,9.9',
          'CU-X,未知运营商,中国铁通,流量,1,GB,30,9.9',
          'CU-SMS,短信包,中国联通,短信,100,GB,30,5',
          'CU-V,语音包,中国联通,语音,abc,分钟,0,5.999',
          'CU-1G,重复编码,中国联通,流量,2,GB,30,9.9',
        ]),
        'plans.csv', 'text/csv', 'zh',
      );
      expect(body).toMatchObject({ success: false, errorCode: ErrorCode.OperatorGoodsImportInvalid, msg: '文件中有 7 处错误，未导入任何套餐，请修改后重新上传' });
      expect(body.data.total).toBe(6);
      expect(body.data.errors).toEqual([
        { row: 3, column: '运营商套餐编码', reason: '必填' },
        { row: 4, column: '运营商', reason: '未知的运营商（中国移动 / 中国联通 / 中国电信）' },
        { row: 5, column: '额度单位', reason: '该类型的单位应为 条' },
        { row: 6, column: '额度', reason: '应为大于 0 的数字' },
        { row: 6, column: '有效期（天）', reason: '应为正整数' },
        { row: 6, column: '价格（元）', reason: '应为不小于 0 的金额，最多 2 位小数' },
        { row: 7, column: '运营商套餐编码', reason: '与第 2 行重复' },
      ]);
      expect(await count()).toBe(before);
    });

    it('imports a good xlsx file with English headers, converting GB to MB, and audits it', async () => {
      const wb = new ExcelJS.Workbook();
      const ws = wb.addWorksheet('plans');
      ws.addRow(['Operator plan code', 'Plan name', 'Operator', 'Plan type', 'Quota', 'Quota unit', 'Validity (days)', 'Price (CNY)']);
      ws.addRow(['CM-2G-30', 'CMCC 2 GB monthly', 'China Mobile', 'Data', 2, 'GB', 30, 15]);
      ws.addRow(['CM-500M', 'CMCC 500 MB', 'CMCC', 'data', 500, 'MB', 30, 6.5]);
      ws.addRow([]);
      ws.addRow(['CT-SMS-100', 'Telecom 100 SMS', 'China Telecom', 'SMS', 100, 'messages', 30, 3]);
      ws.addRow(['CT-VOICE-60', 'Telecom 60 minutes', '中国电信', '语音', 60, '分钟', 30, 4.8]);
      const data = Buffer.from(await wb.xlsx.writeBuffer());
      const body = await upload(data, 'plans.xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(body, body.msg).toMatchObject({ success: true, data: { imported: 4 } });
      const list = await ok('network/operatorsGoods/list', { operatorId: Operator.ChinaMobile, goodsType: OperatorGoodsType.Data });
      const twoGb = list.list.find((g: any) => g.goodsCode === 'CM-2G-30');
      expect(twoGb).toMatchObject({ quota: 2, quotaUnit: QuotaUnit.Gb, quotaBase: 2048, price: '15.00', validityDays: 30, status: OperatorGoodsStatus.On });
      expect(list.list.find((g: any) => g.goodsCode === 'CM-500M')).toMatchObject({ quotaBase: 500, quotaUnit: QuotaUnit.Mb });
      expect(await auditCount('operatorGoodsImport')).toBeGreaterThanOrEqual(1);

      // a code already imported for the operator makes the whole second file fail
      const again = await upload(csv(['CM-2G-30,again,中国移动,流量,1,GB,30,1', 'CM-NEW,new,中国移动,流量,1,GB,30,1']), 'again.csv');
      expect(again).toMatchObject({ errorCode: ErrorCode.OperatorGoodsImportInvalid, data: { errors: [{ row: 2, column: 'Operator plan code', reason: 'this operator already has a plan with this code' }] } });
      expect((await ok('network/operatorsGoods/list', { goodsCode: 'CM-NEW' })).total).toBe(0);
    });

    it('refuses files that are not xlsx or csv, empty files and missing columns', async () => {
      expect((await upload(Buffer.from('%PDF-1.4'), 'plans.pdf', 'application/pdf')).errorCode).toBe(ErrorCode.FileType);
      expect((await upload(Buffer.from('not a zip'), 'plans.xlsx', 'application/octet-stream')).errorCode).toBe(ErrorCode.FileType);
      expect((await upload(csv([]), 'empty.csv')).errorCode).toBe(ErrorCode.OperatorGoodsImportEmpty);
      const noPrice = await upload(csv(['a,b,中国移动,流量,1,GB,30'], '运营商套餐编码,套餐名称,运营商,套餐类型,额度,额度单位,有效期（天）'));
      expect(noPrice).toMatchObject({ errorCode: ErrorCode.OperatorGoodsImportInvalid, data: { errors: [{ row: 1, column: 'Price (CNY)' }] } });
      const post = (parts: Parameters<typeof multipart>[0]) => {
        const m = multipart(parts);
        return t.app.inject({ method: 'POST', url: '/api/cmp/network/operatorsGoods/add', payload: m.payload, headers: { ...m.headers, authorization: admin } });
      };
      expect((await post([])).json().errorCode).toBe(ErrorCode.FileRequired);
      // a part the import does not take is refused by name, as an unknown JSON field is
      expect((await post([{ name: 'other', value: 'x' }])).json()).toMatchObject({ errorCode: ErrorCode.UnknownField, data: { field: 'other' } });
    });

    it('serves the template in both languages, and the template imports as it is', async () => {
      for (const [lang, first] of [['zh', '运营商套餐编码'], ['en', 'Operator plan code']] as const) {
        const res = await t.app.inject({ method: 'GET', url: `/api/cmp/network/operatorsGoods/template?lang=${lang}`, headers: { authorization: admin } });
        expect(res.statusCode).toBe(200);
        const wb = new ExcelJS.Workbook();
        await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
        expect(wb.worksheets[0].getRow(1).getCell(1).value).toBe(first);
        const csvRes = await t.app.inject({ method: 'GET', url: `/api/cmp/network/operatorsGoods/template?lang=${lang}&format=csv`, headers: { authorization: admin } });
        expect(csvRes.body.replace('\ufeff', '').startsWith(first)).toBe(true);
      }
      // templateLang picks the headers whatever the UI language is
      const zhTpl = await t.app.inject({ method: 'GET', url: '/api/cmp/network/operatorsGoods/template?lang=en&templateLang=zh&format=csv', headers: { authorization: admin } });
      expect(zhTpl.body.replace('\ufeff', '').startsWith('运营商套餐编码')).toBe(true);
      const res = await t.app.inject({ method: 'GET', url: '/api/cmp/network/operatorsGoods/template?lang=en&format=csv', headers: { authorization: admin } });
      expect((await upload(res.rawPayload, 'template.csv')).data).toEqual({ imported: 1 });
    });

    it('operator package list calls force status 1; switch and delete', async () => {
      await upload(csv(['CU-PKG-A,联通 A,中国联通,流量,100,MB,30,1', 'CU-PKG-B,联通 B,中国联通,流量,200,MB,30,2', 'CU-PKG-C,联通 C,中国联通,短信,50,条,30,1']), 'pkg.csv');
      const all = (await ok('network/operatorsGoods/list', { goodsCode: 'CU-PKG' })).list;
      const id = (code: string) => all.find((g: any) => g.goodsCode === code).goodsId;
      await ok('network/operatorsGoods/status', { goodsId: id('CU-PKG-B'), status: OperatorGoodsStatus.Off });
      expect((await ok('network/operatorsGoods/list', { goodsCode: 'CU-PKG-B' })).list[0].status).toBe(OperatorGoodsStatus.Off);

      const codes = (rows: any[]) => rows.map((g) => g.goodsCode).filter((c: string) => c.startsWith('CU-PKG')).sort();
      // asking for status 0 still returns only status 1 plans
      for (const status of [undefined, OperatorGoodsStatus.Off, OperatorGoodsStatus.On, 7]) {
        const opts = await ok('network/operatorsGoods/packageNameList', { operatorId: Operator.ChinaUnicom, ...(status !== undefined && { status }) });
        expect(codes(opts), String(status)).toEqual(['CU-PKG-A', 'CU-PKG-C']);
        expect(opts.every((g: any) => g.status === OperatorGoodsStatus.On)).toBe(true);
      }
      expect(codes(await ok('network/operatorsGoods/packageNameList', { goodsType: OperatorGoodsType.Sms }))).toEqual(['CU-PKG-C']);
      await ok('network/operatorsGoods/status', { goodsId: id('CU-PKG-B'), status: OperatorGoodsStatus.On });
      expect(codes(await ok('network/operatorsGoods/packageNameList', { operatorId: Operator.ChinaUnicom }))).toEqual(['CU-PKG-A', 'CU-PKG-B', 'CU-PKG-C']);
      expect((await t.call('network/operatorsGoods/status', { goodsId: id('CU-PKG-B'), status: 2 }, { token: admin })).body.errorCode).toBe(ErrorCode.Validation);

      expect(await ok('network/operatorsGoods/delete', { goodsIds: [id('CU-PKG-A'), id('CU-PKG-C')] })).toEqual({ deleted: 2 });
      expect(codes((await ok('network/operatorsGoods/list', { goodsCode: 'CU-PKG' })).list)).toEqual(['CU-PKG-B']);
      expect(codes(await ok('network/operatorsGoods/packageNameList', {}))).toEqual(['CU-PKG-B']);
      expect((await t.call('network/operatorsGoods/delete', { goodsIds: [id('CU-PKG-A')] }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
      expect(await auditCount('operatorGoods', id('CU-PKG-B'))).toBe(2);
      expect(await auditCount('operatorGoods', id('CU-PKG-A'))).toBe(1);
    });
  });

  describe('China Unicom communication plans', () => {
    let unicomApn: number;
    let mobileApn: number;
    beforeAll(async () => {
      const apn = (apnName: string, operatorId: number) => ({ apnName, operatorId, apnType: ApnType.Private, ipAllocation: IpAllocation.Static });
      unicomApn = (await ok('network/apn/save', apn('uniiot.fleet', Operator.ChinaUnicom))).apnId;
      mobileApn = (await ok('network/apn/save', apn('cmiot.fleet', Operator.ChinaMobile))).apnId;
    });
    const plan = (over: Record<string, unknown> = {}) => ({
      planName: '联通车队数据计划', planCode: 'CU_FLEET_01', dataEnabled: true, smsEnabled: true, voiceEnabled: false, apnId: unicomApn,
      roamingZone: RoamingZone.Domestic, dataLimitMb: 1024, smsLimit: 100, speedLimitKbps: 2048, description: '车队', ...over,
    });

    it('adds a plan on a China Unicom APN with the billing period starting on the 26th', async () => {
      const apnList = await ok('network/unicomCommPlan/apnList', {});
      expect(apnList.billingDay).toBe(26);
      // only China Unicom's APNs: the Mobile one created above is not offered
      expect(apnList.apns.map((a: any) => a.apnId)).toContain(unicomApn);
      expect(apnList.apns.map((a: any) => a.apnId)).not.toContain(mobileApn);
      const { planId } = await ok('network/unicomCommPlan/add', plan());
      const d = await ok('network/unicomCommPlan/detail', { planId });
      expect(d).toMatchObject({ planName: '联通车队数据计划', apnName: 'uniiot.fleet', billingDay: 26, status: 1, dataLimitMb: 1024, voiceEnabled: false, copiedFrom: null });
      expect((await t.call('network/unicomCommPlan/add', plan({ billingDay: 1, planName: 'x' }), { token: admin })).body.errorCode).toBe(ErrorCode.UnknownField);
    });

    it('refuses an APN of another operator, data without an APN and a plan without services', async () => {
      const other = await t.call('network/unicomCommPlan/add', plan({ planName: 'p2', apnId: mobileApn }), { token: admin, lang: 'zh' });
      expect(other.body).toMatchObject({ errorCode: ErrorCode.UnicomPlanApnInvalid, msg: '请选择中国联通已启用的 APN', data: { field: 'apnId' } });
      expect((await t.call('network/unicomCommPlan/add', plan({ planName: 'p3', apnId: null }), { token: admin })).body.data).toEqual({ field: 'apnId' });
      expect((await t.call('network/unicomCommPlan/add', plan({ planName: 'p4', dataEnabled: false, smsEnabled: false, voiceEnabled: false }), { token: admin })).body.data).toEqual({ field: 'serviceTypes' });
      // SMS only: no APN needed, data limits dropped
      const sms = await ok('network/unicomCommPlan/add', plan({ planName: 'SMS only', dataEnabled: false, apnId: null, speedLimitKbps: 100 }));
      expect(await ok('network/unicomCommPlan/detail', { planId: sms.planId })).toMatchObject({ apnId: null, dataLimitMb: null, speedLimitKbps: null, smsLimit: 100 });
    });

    it('copies a plan: the copy must take a new name; edits keep names unique', async () => {
      const source = (await ok('network/unicomCommPlan/page', { planName: '联通车队数据计划' })).list[0];
      const same = await t.call('network/unicomCommPlan/add', { ...plan(), copyFrom: source.planId }, { token: admin, lang: 'zh' });
      expect(same.body).toMatchObject({ errorCode: ErrorCode.UnicomPlanNameTaken, msg: '已有同名联通通信计划', data: { field: 'planName' } });
      const sameUpper = await t.call('network/unicomCommPlan/add', { ...plan({ planName: 'sms ONLY' }), copyFrom: source.planId }, { token: admin });
      expect(sameUpper.body.errorCode).toBe(ErrorCode.UnicomPlanNameTaken);
      const copy = await ok('network/unicomCommPlan/add', { ...plan({ planName: '联通车队数据计划（副本）' }), copyFrom: source.planId });
      expect(await ok('network/unicomCommPlan/detail', { planId: copy.planId })).toMatchObject({ copiedFrom: source.planId, billingDay: 26, planCode: 'CU_FLEET_01' });
      expect((await t.call('network/unicomCommPlan/add', { ...plan({ planName: 'ghost' }), copyFrom: 999999 }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);

      const rename = await t.call('network/unicomCommPlan/update', { ...plan({ planName: '联通车队数据计划' }), planId: copy.planId }, { token: admin });
      expect(rename.body.errorCode).toBe(ErrorCode.UnicomPlanNameTaken);
      await ok('network/unicomCommPlan/update', { ...plan({ planName: '联通车队计划 B', roamingZone: RoamingZone.HkMoTw, status: 2 }), planId: copy.planId });
      expect(await ok('network/unicomCommPlan/detail', { planId: copy.planId })).toMatchObject({ planName: '联通车队计划 B', roamingZone: RoamingZone.HkMoTw, status: 2 });
      await ok('network/unicomCommPlan/delete', { planId: copy.planId });
      expect((await t.call('network/unicomCommPlan/detail', { planId: copy.planId }, { token: admin })).body.errorCode).toBe(ErrorCode.NotFound);
      expect(await auditCount('unicomCommPlan', copy.planId)).toBe(3);
    });
  });

  describe('access and exports', () => {
    it('refuses customers (20002), even a customer role that holds the codes', async () => {
      const ent = await t.login('enterprise');
      for (const [ep, body] of [
        ['network/firewall/policy/page', {}], ['network/firewall/address/page', { addressScope: 'srcaddr' }], ['network/operatorsGoods/list', {}],
        ['network/operatorsGoods/packageNameList', {}], ['network/unicomCommPlan/page', {}],
      ] as const) {
        expect((await t.call(ep, body, { token: ent })).body.errorCode, ep).toBe(ErrorCode.PermissionDenied);
      }
      const codes = [7000000, 7080000, 7080001, 7080005, 7020000, 7020001, 7020003, 7090000, 7090001, 11000000, 11020000, 4010000];
      const role = await ok('system/role/saveRole', { roleCode: 'NET_CUST', roleName: '网络配置（客户）', roleType: 3000, permissions: codes });
      const custs = await ok('core/account/customer/getCustomerListPage', { pageSize: 50 });
      const custId = custs.list.find((c: any) => c.level === 1).custId;
      await ok('core/account/account/saveAccount', { loginName: 'net.customer', userName: 'n', roleId: role.roleId, custId, password: 'Customer#2026' });
      const cust = await t.login('net.customer', 'Customer#2026');
      const calls: [string, unknown][] = [
        ['network/firewall/policy/page', {}], ['network/firewall/address/add', addr('srcaddr')], ['network/operatorsGoods/list', {}],
        ['network/operatorsGoods/packageNameList', {}], ['network/operatorsGoods/status', { goodsId: 1, status: 0 }],
        ['network/unicomCommPlan/page', {}], ['network/unicomCommPlan/apnList', {}],
      ];
      for (const [ep, body] of calls) expect((await t.call(ep, body, { token: cust })).body.errorCode, ep).toBe(ErrorCode.PermissionDenied);
      const m = multipart([{ name: 'file', filename: 'a.csv', type: 'text/csv', data: Buffer.from('x') }]);
      const up = await t.app.inject({ method: 'POST', url: '/api/cmp/network/operatorsGoods/add', payload: m.payload, headers: { ...m.headers, authorization: cust } });
      expect(up.json().errorCode).toBe(ErrorCode.PermissionDenied);
      const tpl = await t.app.inject({ method: 'GET', url: '/api/cmp/network/operatorsGoods/template', headers: { authorization: cust } });
      expect(tpl.json().errorCode).toBe(ErrorCode.PermissionDenied);
    });

    it('the stock codes reach the same operator plans', async () => {
      const role = await ok('system/role/saveRole', { roleCode: 'STOCK_PLANS', roleName: '库存套餐', roleType: 2000, permissions: [11000000, 11020000, 11020001] });
      await ok('core/account/account/saveAccount', { loginName: 'stock.staff', userName: 's', roleId: role.roleId, password: 'Stock#2026ok' });
      const stock = await t.login('stock.staff', 'Stock#2026ok');
      const list = await ok('network/operatorsGoods/list', {}, stock);
      expect(list.total).toBeGreaterThan(0);
      await ok('network/operatorsGoods/status', { goodsId: list.list[0].goodsId, status: OperatorGoodsStatus.Off }, stock);
      // the stock role lacks 11020002: delete is refused
      expect((await t.call('network/operatorsGoods/delete', { goodsIds: [list.list[0].goodsId] }, { token: stock })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call('network/firewall/policy/page', {}, { token: stock })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    });

    const exportCsv = async (source: string, filters: Record<string, unknown> = {}, token = admin, lang: 'zh' | 'en' = 'en') => {
      const created = await t.call('core/downloadTask/createExport', { source, filters, format: ExportFormat.Csv }, { token, lang });
      expect(created.body.success, created.body.msg).toBe(true);
      const task = await waitFor(async () => {
        const r = await t.call('core/downloadTask/getListPage', {}, { token });
        const x = r.body.data.list.find((d: any) => d.taskId === created.body.data.taskId);
        return x && x.state !== ExportState.InProcess ? x : null;
      });
      expect(task.state).toBe(ExportState.Succeeded);
      const file = await t.app.inject({ method: 'GET', url: `/api/cmp/core/downloadTask/download?taskId=${task.taskId}`, headers: { authorization: token } });
      return file.body;
    };

    it('exports policies, address books, operator plans and Unicom plans', async () => {
      expect(await exportCsv('network/firewall/policy/page', { policyName: 'Deny telnet' })).toContain('Deny telnet,China Mobile,Outbound (device to network),Deny,TCP,Fleet devices(10.20.0.0/16),Telemetry server(203.0.113.10),23,1,Enabled');
      const dst = await exportCsv('network/firewall/address/page', { addressScope: 'dstaddr' });
      expect(dst).toContain('Telemetry server,Single IP,203.0.113.10');
      expect(dst).not.toContain('Fleet devices');
      expect(await exportCsv('network/operatorsGoods/list', { goodsCode: 'CM-2G-30' }, admin, 'zh')).toContain('CM-2G-30,CMCC 2 GB monthly,中国移动,流量,2,GB,30,15.00,开启');
      expect(await exportCsv('network/unicomCommPlan/page', { planName: '联通车队数据计划' })).toContain('联通车队数据计划,CU_FLEET_01,Yes,Yes,No,uniiot.fleet,Mainland China,1024,1 GB,100,2048,26,Enabled');
      // the per-list export endpoints of spec §7 start the same download task
      const viaEndpoint = await ok('network/firewall/policy/export', { policyName: 'Deny telnet', format: ExportFormat.Csv });
      const task = await waitFor(async () => {
        const r = await t.call('core/downloadTask/getListPage', {}, { token: admin });
        const x = r.body.data.list.find((d: any) => d.taskId === viaEndpoint.taskId);
        return x && x.state !== ExportState.InProcess ? x : null;
      });
      expect(task).toMatchObject({ state: ExportState.Succeeded, rowCount: 1, source: 'network/firewall/policy/page' });
      expect((await ok('network/firewall/address/export', { addressScope: 'srcaddr' })).taskId).toBeTruthy();
      expect((await ok('network/operatorsGoods/export', { goodsType: OperatorGoodsType.Data })).taskId).toBeTruthy();
      expect((await ok('network/unicomCommPlan/export', { status: 1 })).taskId).toBeTruthy();
      expect((await t.call('network/firewall/address/export', {}, { token: admin })).body.msg).toBe('Field addressScope: is required');
      // the firewall export needs the export button 7080004
      const role = await ok('system/role/saveRole', { roleCode: 'FW_VIEW', roleName: '防火墙查看', roleType: 2000, permissions: [7000000, 7080000] });
      await ok('core/account/account/saveAccount', { loginName: 'fw.viewer', userName: 'v', roleId: role.roleId, password: 'Viewer#2026' });
      const viewer = await t.login('fw.viewer', 'Viewer#2026');
      expect((await t.call('network/firewall/policy/page', {}, { token: viewer })).body.success).toBe(true);
      expect((await t.call('core/downloadTask/createExport', { source: 'network/firewall/policy/page' }, { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call('network/firewall/policy/export', {}, { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
      expect((await t.call('network/firewall/address/add', addr('srcaddr'), { token: viewer })).body.errorCode).toBe(ErrorCode.PermissionDenied);
    });
  });
});
