-- File push (issue 15, docs/data-push.md): the SFTP server's host key is pinned per task. The SHA-256 fingerprint
-- (`SHA256:<base64>` as OpenSSH prints it) the user accepted from "test connection", or the one the first push met when
-- the task was saved without one (tasks from before this migration). A push to a server presenting another key is
-- refused (21052) until the user tests again and saves the new fingerprint.
alter table data_push_tasks add column host_key text;

-- the built-in enterprise customer role (3000) manages its own file push tasks (System › File push, 14030000, under
-- System 14000000, which it holds): the screen is scoped to the customer's own tasks
update roles set permissions = (select array_agg(distinct p order by p) from unnest(permissions || array[14030000]) p)
  where built_in and role_type = 3000 and 14000000 = any (permissions);
