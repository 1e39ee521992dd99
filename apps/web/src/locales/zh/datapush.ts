/** System › File push (issue 15, 14030000; docs/data-push.md). */
export default {
  title: '文件推送任务',
  intro: '每个任务每天在推送时间（{{tz}}）把客户的卡片列表或前一天的用量以 CSV 文件推送到 SFTP 服务器：先写临时文件，完成后再改名，对方不会读到不完整的文件。密码和私钥加密保存，保存后不再显示。',
  emptyHint: '还没有文件推送任务。点击“新增任务”，把卡片列表或每日用量定时推送到您的 SFTP 服务器。',
  f: {
    customer: '客户', name: '任务名称', fileType: '文件类型', host: 'SFTP 地址', port: '端口', account: '账号', authType: '登录方式',
    password: '密码', privateKey: '私钥', passphrase: '私钥口令', path: '路径', pushTime: '推送时间', open: '状态', lastRun: '最近推送',
    updatedBy: '最后修改人', secretKept: '已保存，留空则不修改', hostKey: '服务器主机密钥指纹（SHA-256）',
  },
  help: {
    fileType: '卡片列表：客户的全部卡片（一级客户含其二级客户的卡片）；日用量：每张卡前一天的用量。',
    path: 'SFTP 服务器上的绝对路径（目录），如 /upload/cmp；账号须有写入权限。',
    pushTime: '每天的推送时间（{{tz}}）。新增、开启或修改时间后，从下一次到点开始推送。',
    privateKey: 'OpenSSH 或 PEM 格式的私钥全文。',
  },
  ph: { name: '如：每日卡片清单', host: '如 sftp.example.com 或 10.0.0.8', path: '如 /upload/cmp', customer: '请选择客户' },
  action: { add: '新增任务', edit: '编辑', delete: '删除', test: '测试连接', pushNow: '立即推送', runs: '推送记录', on: '开启', off: '关闭' },
  form: { addTitle: '新增文件推送任务', editTitle: '编辑文件推送任务', required: '请选择或输入', pushTimeRequired: '请选择推送时间' },
  test: { running: '正在连接…', ok: '连接成功', failed: '连接失败', took: '用时 {{ms}} 毫秒' },
  hostKey: {
    none: '尚未固定：测试连接后保存即固定所示指纹；不测试则首次推送时固定',
    pinned: '已固定。推送时服务器出示其他密钥会被拒绝。',
    willPin: '保存后固定此指纹：请与服务器管理员核对（服务器上执行 ssh-keygen -lf <主机公钥文件>），之后出示其他密钥的服务器不会收到文件。',
    changedTitle: '服务器的主机密钥已变更',
    changed: '任务已固定的指纹为 {{pinned}}，服务器本次出示 {{presented}}。若非服务器管理员有意更换密钥，可能存在中间人攻击；确认无误后保存任务即接受新密钥。',
  },
  confirm: {
    deleteTitle: '删除文件推送任务？', deleteContent: '删除后任务“{{name}}”不再推送，等待中的推送将被取消。',
    onTitle: '开启文件推送任务？', onContent: '开启后，任务“{{name}}”从下一次到点（每天 {{time}}）开始推送。',
    offTitle: '关闭文件推送任务？', offContent: '关闭后，任务“{{name}}”不再按时推送，仍可立即推送。',
    pushTitle: '立即推送？', pushContent: '立即生成任务“{{name}}”的文件并推送到 {{host}}:{{path}}。',
  },
  done: { deleted: '任务已删除', on: '任务已开启', off: '任务已关闭', pushed: '已开始推送，结果见推送记录' },
  runs: {
    title: '推送记录：{{name}}', empty: '还没有推送记录：到点或点击“立即推送”后会出现在这里。',
    time: '时间', trigger: '方式', day: '所属日期', file: '文件名', size: '大小（字节）', rows: '行数', state: '结果', error: '原因', attempts: '尝试次数', by: '操作人',
  },
};
