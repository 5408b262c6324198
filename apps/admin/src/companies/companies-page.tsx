import type { CompanyResponse } from "@licensing/contracts";
import { ActionIcon, Box, Button, Group, Menu, Paper, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";

import { useState } from "react";
import { AnchorLink } from "../lib/links.tsx";
import { usePermissions, type Permissions } from "../lib/me.ts";
import { useTRPC } from "../lib/trpc.ts";
import { StatusBadge } from "../lib/status.tsx";
import { PageHeader, QueryState } from "../lib/ui.tsx";
import { ArchiveDialog, CreateCompanyDialog, ReparentDialog } from "./company-dialogs.tsx";
import { buildTree, type CompanyNode } from "./company-tree.ts";

type Dialog =
  | { kind: "create"; parent: CompanyResponse | null }
  | { kind: "move"; company: CompanyResponse }
  | { kind: "archive"; company: CompanyResponse };

export function CompaniesPage() {
  const trpc = useTRPC();
  const can = usePermissions();
  const list = useQuery(trpc.companies.list.queryOptions());
  const [collapsed, setCollapsed] = useState<Set<string>>(new Set());
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const toggle = (id: string) =>
    setCollapsed((set) => {
      const next = new Set(set);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  return (
    <>
      <PageHeader title="Companies">
        {can.createRootCompany && (
          <Button onClick={() => setDialog({ kind: "create", parent: null })}>New root company</Button>
        )}
      </PageHeader>
      <Paper withBorder p="xs">
        <QueryState query={list} label="companies" empty="No company yet.">
          {(companies) => (
            <ul role="tree" aria-label="Company tree" style={{ listStyle: "none", margin: 0, padding: 0 }}>
              {buildTree(companies).map((node) => (
                <TreeItem
                  key={node.company.id}
                  node={node}
                  collapsed={collapsed}
                  toggle={toggle}
                  can={can}
                  open={setDialog}
                />
              ))}
            </ul>
          )}
        </QueryState>
      </Paper>
      {dialog?.kind === "create" && (
        <CreateCompanyDialog parent={dialog.parent} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "move" && list.data && (
        <ReparentDialog company={dialog.company} companies={list.data} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === "archive" && (
        <ArchiveDialog company={dialog.company} onClose={() => setDialog(null)} />
      )}
    </>
  );
}

function TreeItem({
  node,
  collapsed,
  toggle,
  can,
  open,
}: {
  node: CompanyNode;
  collapsed: Set<string>;
  toggle: (id: string) => void;
  can: Permissions;
  open: (dialog: Dialog) => void;
}) {
  const { company, children } = node;
  const expanded = children.length > 0 && !collapsed.has(company.id);
  const archived = company.status === "Archived";
  return (
    <li role="treeitem" aria-expanded={children.length ? expanded : undefined} aria-label={company.name}>
      <Group gap="xs" py={4} wrap="nowrap">
        <Box w={28}>
          {children.length > 0 && (
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-label={`${expanded ? "Collapse" : "Expand"} ${company.name}`}
              onClick={() => toggle(company.id)}
            >
              {expanded ? "▾" : "▸"}
            </ActionIcon>
          )}
        </Box>
        <AnchorLink to="/companies/$companyId" params={{ companyId: company.id }} fw={500}>
          {company.name}
        </AnchorLink>
        <Text size="xs" c="dimmed" visibleFrom="xs">
          {company.slug}
        </Text>
        {archived && <StatusBadge of="company" status="Archived" />}
        {!archived && (can.createChildCompany || can.reparentCompany || can.archiveCompany) && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" size="sm" aria-label={`Actions for ${company.name}`} ml="auto">
                ⋯
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {can.createChildCompany && (
                <Menu.Item onClick={() => open({ kind: "create", parent: company })}>
                  Add a child company
                </Menu.Item>
              )}
              {can.reparentCompany && (
                <Menu.Item onClick={() => open({ kind: "move", company })}>
                  Move under another parent
                </Menu.Item>
              )}
              {can.archiveCompany && (
                <Menu.Item color="red" onClick={() => open({ kind: "archive", company })}>
                  Archive
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
      {expanded && (
        <ul role="group" style={{ listStyle: "none", margin: 0, paddingLeft: 24 }}>
          {children.map((child) => (
            <TreeItem
              key={child.company.id}
              node={child}
              collapsed={collapsed}
              toggle={toggle}
              can={can}
              open={open}
            />
          ))}
        </ul>
      )}
    </li>
  );
}
