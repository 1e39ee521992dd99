/** Auto rule (issue 15, 5000000): rules and trigger records. */
export default {
  title: '自动化规则',
  intro: '规则监控范围内的卡：满足条件的卡按规则只记录一次（阈值类规则每个周期一次），执行规则的动作，并按所选方式通知。每月 5 日、15 日、25 日定期扫描全部规则；流量、流量池、短信、会话和变更类规则在每次用量同步后立即检查。预付周期不足 10 天的套餐的卡不参与。',
  emptyHint: '还没有自动化规则。点击「新增规则」创建一条，保存后发布即生效。',
  f: {
    name: '规则名称', type: '规则类型', level: '级别', condition: '触发条件', action: '动作', channels: '通知方式', contacts: '联系人', phones: '手机号', emails: '邮箱',
    scope: '范围', status: '发布状态', enabled: '开关', remark: '备注', triggered: '已触发卡数', lastTriggered: '最近触发', owner: '所属客户',
    createdAt: '创建时间', updatedAt: '最后修改', threshold: '阈值', states: '目标状态', targetState: '变更为', targetPlan: '目标套餐',
    scopeCust: '客户', scopeOperator: '运营商', scopePlan: '套餐', publishedAt: '发布时间',
  },
  conditionText: {
    1: '合约在 {{n}} 天内到期', 2: '周期流量 ≥ 套餐额度的 {{n}}%', 3: '流量池用量 ≥ {{n}}%', 4: '连续 {{n}} 小时无会话', 5: 'IMEI 发生变化',
    6: '卡状态变为 {{states}}', 7: '套餐发生变更', 8: '周期内短信超过 {{n}} 条',
  },
  anyState: '任意状态',
  allCards: '全部可见卡',
  platformRule: '平台规则',
  noChannel: '不通知',
  action: {
    add: '新增规则', edit: '编辑', delete: '删除', detail: '详情', publish: '发布', on: '开启', off: '关闭', dryRun: '试运行', records: '触发记录',
  },
  confirm: {
    deleteTitle: '删除规则？', deleteContent: '删除后规则不再执行，已有的触发记录保留。',
    publishTitle: '发布规则？', publishContent: '发布后规则立即开启，从下一次检查起对范围内的卡生效。',
    onTitle: '开启规则？', offTitle: '关闭规则？', onContent: '开启后从下一次检查起生效。', offContent: '关闭后不再检查，直到再次开启。',
  },
  done: { saved: '规则已保存', deleted: '规则已删除', published: '规则已发布并开启', on: '规则已开启', off: '规则已关闭' },
  form: {
    addTitle: '新增自动化规则', editTitle: '编辑自动化规则', nameRequired: '请输入规则名称', thresholdRequired: '请输入 {{min}}-{{max}} 之间的整数',
    required: '请选择或输入', contactsHelp: '多个用英文分号 ; 分隔，最多 5 个，不能包含空格',
    thresholdUnit: { 1: '天', 2: '%', 3: '%', 4: '小时', 8: '条' },
  },
  detail: {
    title: '规则详情', runs: '执行记录', dryRunTitle: '试运行（最近 30 天）',
    dryRunHelp: '假如这条规则在最近 30 天一直开启，根据已存储的每日用量和卡历史，哪些卡会在哪天触发。不记录、不发送任何通知。',
    dryRunResult: '{{from}} 至 {{to}}：共 {{cards}} 张卡会触发', dryRunTruncated: '仅列出前 500 条',
    day: '日期', cards: '卡数', value: '测量值',
  },
  run: { kind: '类型', state: '状态', asOf: '检查时刻', cards: '本次触发', startedAt: '开始', finishedAt: '完成', error: '错误' },
  alarm: {
    title: '触发记录', intro: '每条记录是一次检查中某条规则触发的卡。', emptyHint: '还没有触发记录：规则发布并开启后，满足条件的卡会出现在这里。',
    rule: '规则', runKind: '来源', cards: '触发卡数', actionsDone: '动作成功', actionsRefused: '动作被拒', triggeredAt: '触发时间', range: '触发日期',
    detailTitle: '触发详情', cardsTitle: '触发的卡', deliveries: '通知记录', executeTitle: '执行详情',
    iccid: 'ICCID', msisdn: 'MSISDN', customer: '客户', value: '测量值', actionResult: '动作结果', actionError: '原因', period: '触发依据',
    channel: '方式', state: '状态', attempts: '尝试次数', lastError: '最近错误', createdAt: '创建时间', sentAt: '提交时间',
  },
};
