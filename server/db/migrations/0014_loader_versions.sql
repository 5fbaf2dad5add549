-- Every build of the embed loader an instance has served (server/http/pinned-loader.ts): a
-- merchant who pins one with Subresource Integrity keeps getting those exact bytes after upgrades,
-- from any instance.
create table loader_versions (
  version text primary key,
  body bytea not null,
  integrity text not null,
  first_served_at timestamptz not null
);
